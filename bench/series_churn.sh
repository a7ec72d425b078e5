#!/bin/sh
# series_churn.sh - the Prometheus series churn of the exporter on a small
# machine with short-lived processes: how many series (a metric name and
# its labels) appear that were in no sample before, per hour. Not a test:
# it prints figures (docs/prometheus.md quotes them).
#
#   bench/series_churn.sh [PROG [SECONDS [EXPORTER ARGS...]]]
#
# Runs in a PID namespace of its own (unshare; root), so that the exporter
# sees a small machine's processes and not this one's: 30 idle long-lived
# processes (a small server's daemons), a loop starting `sleep 0.1` one
# after the other (about 9 a second), and a loop starting a memhog
# (tests/helpers: make build/tests/helpers/memhog) holding 8 MiB for 3 s
# every 4 s. PROG --format prometheus -d 2 (the default interval) samples
# for SECONDS (default 180); the churn is the new series after the first
# sample, times 3600 / SECONDS.
PROG=${1:-./numatop-tui}
SECS=${2:-180}
[ $# -gt 2 ] && shift 2 || set --
MEMHOG=${MEMHOG:-build/tests/helpers/memhog}
case $PROG in /*) ;; *) PROG=$PWD/$PROG ;; esac
case $MEMHOG in /*) ;; *) MEMHOG=$PWD/$MEMHOG ;; esac
[ -x "$PROG" ] && [ -x "$MEMHOG" ] || { echo "series_churn: need $PROG and $MEMHOG" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/inner.sh" <<'IN'
PROG=$1 MEMHOG=$2 SECS=$3 OUT=$4; shift 4
for _ in $(seq 30); do sleep 3600 & done
(while :; do sleep 0.1; done) &
(while :; do "$MEMHOG" 8 >/dev/null & m=$!; sleep 3; kill "$m"; wait "$m"; sleep 1; done) &
"$PROG" --format prometheus -d 2 -n $((SECS / 2)) "$@" >"$OUT" 2>"$OUT.err"
echo $? >"$OUT.rc"
# The namespace's processes end with its first process (this shell).
IN
unshare --pid --fork --mount-proc sh "$T/inner.sh" "$PROG" "$MEMHOG" "$SECS" "$T/out" "$@"
if [ "$(cat "$T/out.rc" 2>/dev/null)" != 0 ] || [ ! -s "$T/out" ]; then
	echo "series_churn: $PROG failed: $(cat "$T/out.err" 2>/dev/null)" >&2
	exit 1
fi
# A sample starts with the first family's HELP line.
first=$(sed -n '1s/^# HELP \([^ ]*\) .*/\1/p' "$T/out")
awk -v first="$first" -v secs="$SECS" '
$1 == "#" && $2 == "HELP" && $3 == first { n++; next }
/^#/ { next }
{
	k = $0; sub(/ [^ ]*$/, "", k)
	if (!(k in seen)) { seen[k] = 1; d++; if (n > 1) created++; if (k ~ /^numatop_(process|comm)_/) dp++ }
	if (n == 1) s1++
}
END {
	printf "samples %d, series in the first %d, distinct %d (process/comm %d), new after the first %d: %.0f per hour\n",
		n, s1, d, dp, created, created * 3600 / secs
}' "$T/out"
