#!/bin/sh
# The column table from the command line: -o / --columns, -s over every
# column, --help listing them, the tie order, and kernel threads (hidden by
# default, --kernel-threads, -p, JSON) on a copy of tests/trees/opteron4
# with two kernel threads added.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
unset NUMATOP_TUI_ROOT
R=tests/trees/opteron4
# The first field of every process row (the lines under the PID header).
rows() { sed -n '/^ *PID\b/,$p' "$t/o" | sed 1d | awk 'NF {print $1}' | tr '\n' ' '; }

# --- -o ---------------------------------------------------------------
$PROG --root $R -b -n 1 -o pid,remote,comm >"$t/o" 2>&1
hdr=$(grep -E '^ +PID ' "$t/o")
[ "$(echo "$hdr" | tr -s ' ')" = " PID REMOTE COMMAND" ] && grep -Eq '^ +1000 +58496 dbserver$' "$t/o" &&
	ok cols_o_three || bad cols_o_three "$(cat "$t/o")"
# Case-insensitive, aliases, and the order as given.
$PROG --root $R -b -n 1 --columns COMM,Pid,rss_kb >"$t/o" 2>&1
echo "$(grep -E 'COMMAND' "$t/o" | tr -s ' ')" | grep -qx 'COMMAND PID RSS_KB' &&
	grep -Eq '^dbserver +1000 +115412$' "$t/o" && ok cols_o_order_case || bad cols_o_order_case "$(cat "$t/o")"
# N: one column per node; N<id>: that node only.
$PROG --root $R -b -n 1 -o pid,n >"$t/o" 2>&1
grep -Eq '^ +PID +N0 +N1 +N2 +N3$' "$t/o" && grep -Eq '^ +1000 +21504 +65108 +18096 +18896$' "$t/o" &&
	ok cols_o_nodes || bad cols_o_nodes "$(cat "$t/o")"
$PROG --root $R -b -n 1 -o pid,N2 >"$t/o" 2>&1
grep -Eq '^ +PID +N2$' "$t/o" && grep -Eq '^ +2000 +9336$' "$t/o" && ok cols_o_one_node || bad cols_o_one_node "$(cat "$t/o")"
# Columns the default text does not show: TIME (htop's TIME+), THR.
$PROG --root $R -b -n 1 -o pid,thr,time >"$t/o" 2>&1
grep -Eq '^ +1000 +3 +1h29:03$' "$t/o" && grep -Eq '^ +2000 +2 +2:34\.00$' "$t/o" &&
	ok cols_o_thr_time || bad cols_o_thr_time "$(cat "$t/o")"
# START: the start time after boot (stat's starttime, 120000 ticks of
# 1/100 s for 1000), H:MM:SS; sorted by it, the earliest first; the same
# fact as the JSON's start_ticks, and a recorded sample shows it again.
$PROG --root $R -b -n 1 -o pid,start -s start >"$t/o" 2>&1
grep -Eq '^ +PID +START$' "$t/o" && grep -Eq '^ +1000 +0:20:00$' "$t/o" && [ "$(rows)" = "1000 2000 3000 4242 " ] &&
	$PROG --root $R --json -n 1 | grep -q '"pid":1000,[^}]*"start_ticks":120000' &&
	$PROG --root $R -w "$t/rec" -n 1 >/dev/null 2>&1 && $PROG --replay "$t/rec" -b -o pid,start -s start >"$t/o" 2>&1 &&
	grep -Eq '^ +1000 +0:20:00$' "$t/o" && [ "$(rows)" = "1000 2000 3000 4242 " ] &&
	ok cols_o_start || bad cols_o_start "$(cat "$t/o")"
# A long policy is cut with '+' (the JSON has it whole); unknown is '-'.
$PROG --root $R -b -n 1 -o policy,pid >"$t/o" 2>&1
grep -Eq '^mixed: default,interlea\+ +1000$' "$t/o" && grep -Eq '^- +3000$' "$t/o" &&
	ok cols_o_policy || bad cols_o_policy "$(cat "$t/o")"
# --age adds AGE to a chosen list too.
$PROG --root $R -b -n 1 -o pid,comm --age >"$t/o" 2>&1
grep -Eq '^ +PID +AGE +COMMAND$' "$t/o" && ok cols_o_age || bad cols_o_age "$(cat "$t/o")"
# Unknown names: exit 2 with the valid names; a node the machine lacks too.
$PROG --root $R -b -n 1 -o pid,bogus >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "unknown column 'bogus'" "$t/o" && grep -q 'PID USER HOME CPU% RSS N<id> REMOTE' "$t/o" &&
	ok cols_o_unknown || bad cols_o_unknown "rc=$rc $(cat "$t/o")"
$PROG --root $R -b -n 1 -o pid,N9 >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "no node 'N9'" "$t/o" && ok cols_o_no_node || bad cols_o_no_node "rc=$rc $(cat "$t/o")"
$PROG --root $R -b -n 1 -o '' >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && ok cols_o_empty || bad cols_o_empty "rc=$rc $(cat "$t/o")"
# -o does not change the JSON schema.
$PROG --root $R --json -n 1 -o pid >"$t/a" 2>&1 && $PROG --root $R --json -n 1 >"$t/b" 2>&1 &&
	[ "$(sed 's/"spent_ms":[0-9.]*//; s/"cgroups_read_ms":[0-9.]*//; s/"timestamp":"[^"]*"//' "$t/a")" = "$(sed 's/"spent_ms":[0-9.]*//; s/"cgroups_read_ms":[0-9.]*//; s/"timestamp":"[^"]*"//' "$t/b")" ] &&
	ok cols_o_json_unchanged || bad cols_o_json_unchanged "$(head -c 300 "$t/a")"

# --- -s over the table, --help from it ---------------------------------
$PROG --root $R -b -n 1 -s time -o pid >"$t/o" 2>&1
[ "$(rows)" = "1000 2000 3000 4242 " ] &&
	ok cols_sort_time || bad cols_sort_time "$(cat "$t/o")"
$PROG --root $R -b -n 1 -s policy -o pid,policy >"$t/o" 2>&1
[ "$(rows)" = "4242 1000 2000 3000 " ] &&
	ok cols_sort_policy_unknown_last || bad cols_sort_policy_unknown_last "$(cat "$t/o")"
$PROG --help >"$t/o" 2>&1
miss=""
for c in PID USER HOME CPU% RSS 'N<id>' REMOTE REMOTE% TIME THR AGE POLICY COMMAND; do
	grep -q "^  $c " "$t/o" || miss="$miss $c"
done
grep -q -- '-o, --columns LIST' "$t/o" || miss="$miss -o"
[ -z "$miss" ] && ok cols_help_lists_all || bad cols_help_lists_all "not in --help:$miss"
# -s takes every column of the table (and a node), in both batch forms.
miss=""
for c in PID USER HOME CPU% RSS N2 REMOTE REMOTE% TIME THR AGE POLICY COMMAND; do
	$PROG --root $R -b -n 1 -s "$c" -o pid >"$t/o" 2>&1 && [ "$(rows | wc -w)" -eq 4 ] || miss="$miss $c"
done
[ -z "$miss" ] && ok cols_sort_every_column || bad cols_sort_every_column "failed:$miss"

# --- kernel threads ----------------------------------------------------
K=$t/tree; cp -r $R "$K"
add_kthread "$K" 2 0 kthreadd
add_kthread "$K" 77 2 'kworker/0:1'
$PROG --root "$K" -b -n 1 >"$t/o" 2>&1
grep -q 'processes 4 (2 kernel threads hidden)' "$t/o" && ! grep -q kthreadd "$t/o" &&
	ok kthreads_hidden_text || bad kthreads_hidden_text "$(head -3 "$t/o")"
$PROG --root "$K" -b -n 1 --kernel-threads >"$t/o" 2>&1
grep -q 'processes 6  ' "$t/o" && grep -Eq ' kthreadd$' "$t/o" && grep -q 'kworker/0:1' "$t/o" &&
	ok kthreads_shown || bad kthreads_shown "$(cat "$t/o")"
$PROG --root "$K" --json -n 1 >"$t/o" 2>&1
grep -q '"kernel_threads_hidden":2,' "$t/o" && grep -q '"pid":1000,[^}]*"kernel_thread":false' "$t/o" &&
	ok kthreads_json_hidden || bad kthreads_json_hidden "$(head -c 400 "$t/o")"
$PROG --root "$K" --json -n 1 --kernel-threads >"$t/o" 2>&1
grep -q '"kernel_threads_hidden":0,' "$t/o" && grep -q '"pid":77,[^}]*"kernel_thread":true' "$t/o" &&
	ok kthreads_json_marked || bad kthreads_json_marked "$(head -c 400 "$t/o")"
# Only kernel threads that the other filters would show count as hidden.
$PROG --root "$K" -b -n 1 -u alice >"$t/o" 2>&1
grep -q 'processes 1  tool' "$t/o" && ok kthreads_user_filter_count || bad kthreads_user_filter_count "$(head -2 "$t/o")"
$PROG --root "$K" -b -n 1 -u root >"$t/o" 2>&1
grep -q 'processes 2 (2 kernel threads hidden)' "$t/o" && ok kthreads_user_root_count || bad kthreads_user_root_count "$(head -2 "$t/o")"
# A PID asked for by name is shown, kernel thread or not.
$PROG --root "$K" -b -n 1 -p 2 >"$t/o" 2>&1
grep -Eq '^ +2 .* kthreadd$' "$t/o" && ok kthreads_p_shown || bad kthreads_p_shown "$(cat "$t/o")"

# --- ties break by resident memory, largest first ----------------------
# Sorted by CPU% (unknown for all on the first sample) the order is RSS
# descending, not PID: 4242 is made the biggest in the copy.
sed -i 's/^VmRSS:.*/VmRSS:\t400000 kB/' "$K/proc/4242/status"
$PROG --root "$K" -b -n 1 -s cpu -o pid,rss >"$t/o" 2>&1
[ "$(rows)" = "4242 1000 2000 3000 " ] && ok cols_tie_by_rss || bad cols_tie_by_rss "$(cat "$t/o")"

# --- output formats: one table, --format NAME ----------------------------
$PROG --root $R --format json -n 1 >"$t/a" 2>&1 && $PROG --root $R --json -n 1 >"$t/b" 2>&1 &&
	[ "$(sed 's/"spent_ms":[0-9.]*//; s/"cgroups_read_ms":[0-9.]*//; s/"timestamp":"[^"]*"//' "$t/a")" = "$(sed 's/"spent_ms":[0-9.]*//; s/"cgroups_read_ms":[0-9.]*//; s/"timestamp":"[^"]*"//' "$t/b")" ] &&
	ok format_json_is_json || bad format_json_is_json "$(head -c 300 "$t/a")"
$PROG --root $R --format TEXT -n 1 >"$t/a" 2>&1 && $PROG --root $R -b -n 1 >"$t/b" 2>&1 &&
	[ "$(grep -v '^numatop-tui' "$t/a")" = "$(grep -v '^numatop-tui' "$t/b")" ] &&
	ok format_text_is_batch || bad format_text_is_batch "$(head -5 "$t/a")"
$PROG --format yaml -n 1 >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "unknown format 'yaml' (formats: text json prometheus openmetrics)" "$t/o" && ok format_unknown || bad format_unknown "rc=$rc $(cat "$t/o")"
$PROG --help | grep -Eq '^  json +one JSON object per sample' && ok format_help || bad format_help
