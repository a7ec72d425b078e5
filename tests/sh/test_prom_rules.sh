#!/bin/sh
# contrib/prometheus/numatop-rules.yml: promtool check rules is clean,
# promtool test rules passes its test file (numatop-rules.test.yml: the
# recording rules' values, each alert pending, firing and silent), and
# every family the rules name is one the exporter writes (its --format
# prometheus output on a recorded tree with DAMON and memory tiers, or
# docs/prometheus.md's table). Skipped without promtool (Debian's
# prometheus package; make deps installs it).
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
R=contrib/prometheus/numatop-rules.yml
if ! command -v promtool >/dev/null 2>&1; then
	echo "SKIP prom_rules: promtool not found (apt-get install prometheus)"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
promtool check rules "$R" >"$T/o" 2>&1 && grep -q 'SUCCESS: [0-9]* rules found' "$T/o" &&
	! grep -qi 'warn' "$T/o" && ok "prom_rules_check ($(grep -o '[0-9]* rules' "$T/o"))" ||
	bad prom_rules_check "$(cat "$T/o")"
(cd contrib/prometheus && promtool test rules numatop-rules.test.yml) >"$T/o" 2>&1 && grep -q SUCCESS "$T/o" &&
	ok prom_rules_test || bad prom_rules_test "$(cat "$T/o")"
# Every numatop_ name in an expr is a family of docs/prometheus.md (the
# exporter's table), with its _total for counters.
names=$(sed -n 's/^ *expr: //p' "$R" | grep -o 'numatop_[a-z_]*' | sort -u)
missing=
for n in $names; do grep -q "^| \`$n\`" docs/prometheus.md || missing="$missing $n"; done
[ -n "$names" ] && [ -z "$missing" ] && ok "prom_rules_families ($(echo $names | wc -w) names)" ||
	bad prom_rules_families "not in docs/prometheus.md:$missing"
# A rule file that breaks is refused (so the checks above can fail).
sed 's/expr: numatop_hot_remote_bytes > 1073741824/expr: numatop_hot_remote_bytes >/' "$R" >"$T/broken.yml"
promtool check rules "$T/broken.yml" >"$T/o" 2>&1 && bad prom_rules_check_can_fail "$(cat "$T/o")" ||
	ok prom_rules_check_can_fail
