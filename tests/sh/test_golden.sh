#!/bin/sh
# Golden tests of the batch text and JSON output over the recorded tree
# tests/trees/opteron4 (the 4-socket dual-core Opteron of Drepper's article,
# section 5.3; hand-computed values in tests/trees/opteron4/EXPECTED.md).
#
#   sh tests/sh/test_golden.sh            compare (run from the project root)
#   sh tests/sh/test_golden.sh --update   rewrite tests/golden/opteron4*
#
# PROG = the binary (default ./numatop-tui). Prints one "PASS name" or
# "FAIL name" line per check (a diff or the reason follows a FAIL); exit
# status 1 when any check failed. Needs only sh, grep, sed and diff.

PROG=${PROG:-./numatop-tui}
TREE=tests/trees/opteron4
GOLD=tests/golden
LC_ALL=C
export LC_ALL
unset NUMATOP_TUI_ROOT
set -f

update=0
[ "$1" = "--update" ] && update=1

fails=0
pass() { echo "PASS $1"; }
fail() {
	echo "FAIL $1"
	shift
	[ $# -gt 0 ] && printf '  %s\n' "$@"
	fails=$((fails + 1))
}

if [ ! -x "$PROG" ] || [ ! -d "$TREE/proc" ]; then
	fail golden_setup "PROG '$PROG' not executable or tree '$TREE' missing (run from the project root)"
	exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The parts that vary between runs or releases: the time of the sample
# (text header line 1, JSON "timestamp"), the tool's own CPU% (text
# "tool cpu%", JSON "tool_cpu_pct") and the version. Used both to write
# the golden files and to compare with them.
norm() {
	sed -e '1s/^numatop-tui [^ ]*  [0-9][0-9-]* [0-9][0-9:]* [A-Za-z0-9+-]*  /numatop-tui VERSION  TIME  /' \
	    -e 's/  tool cpu% [^ ]*$/  tool cpu% TOOLCPU/' \
	    -e 's/"timestamp":"[^"]*"/"timestamp":"TIME"/' \
	    -e 's/"version":"[^"]*"/"version":"VERSION"/' \
	    -e 's/"tool_cpu_pct":[^,}]*/"tool_cpu_pct":TOOLCPU/' \
	    -e 's/"spent_ms":[^,}]*/"spent_ms":SPENT/'\
	    -e 's/"cgroups_read_ms":[^,}]*/"cgroups_read_ms":CGMS/'
}

# run NAME ARGS...: run the program over the tree into $tmp/NAME.raw and
# $tmp/NAME (normalised); a FAIL line when it exits non-zero or says
# anything on stderr.
run() {
	name=$1
	shift
	"$PROG" --root "$TREE" -n 1 "$@" >"$tmp/$name.raw" 2>"$tmp/$name.err"
	rc=$?
	norm <"$tmp/$name.raw" >"$tmp/$name"
	if [ $rc -ne 0 ] || [ -s "$tmp/$name.err" ]; then
		fail "run_$name" "exit status $rc: $PROG --root $TREE -n 1 $*"
		sed 's/^/  stderr: /' "$tmp/$name.err"
		return 1
	fi
	return 0
}

# One JSON node or process object a line (for readable diffs only).
json_lines() {
	sed -e 's/{"id":/\
{"id":/g' -e 's/{"pid":/\
{"pid":/g'
}

# golden NAME FILE ARGS...: compare (or with --update write) a golden file.
golden() {
	name=$1
	file=$GOLD/$2
	shift 2
	run "$name" "$@" || return
	if [ $update -eq 1 ]; then
		mkdir -p "$GOLD"
		cp "$tmp/$name" "$file"
	fi
	if [ ! -f "$file" ]; then
		fail "$name" "no golden file $file (make it with --update)"
	elif diff "$file" "$tmp/$name" >/dev/null; then
		pass "$name"
	else
		fail "$name" "output differs from $file:"
		# JSON is one long line: diff it one node / process a line.
		json_lines <"$file" >"$tmp/$name.want"
		json_lines <"$tmp/$name" >"$tmp/$name.got"
		diff -u "$tmp/$name.want" "$tmp/$name.got"
	fi
}

golden golden_text opteron4.txt -b
golden golden_json opteron4.json --json
golden golden_sort_pid opteron4-sort-pid.txt -b -s PID
golden golden_pid1000_json opteron4-pid1000.json --json -p 1000
golden golden_cgroups_text opteron4-cgroups.txt -b --cgroups -o pid,cgroup,comm

# ---- Targeted checks: hand-computed values (EXPECTED.md), independent of
# the golden files.

# The process table's row for PID $2 in text output $1: "PID USER HOME
# CPU% RSS_KB N0 N1 N2 N3 REMOTE REMOTE% ..." (policy and command follow).
row() { grep -E "^ *$2 " "$1" | sed 1q; }
# PIDs of the process table of text output $1, in order, on one line.
pids() {
	list=
	for p in $(sed -n '/^ *PID  *USER /,$p' "$1" | sed -e 1d -e '/^$/d' \
			-e 's/^ *\([0-9][0-9]*\) .*/\1/'); do
		list="$list${list:+ }$p"
	done
	echo "$list"
}
# The JSON object of PID $2 from JSON output $1 (one process a line).
jproc() {
	json_lines <"$1" | grep "^{\"pid\":$2,"
}
# check NAME ACTUAL EXPECTED
check() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected: $3" "got:      $2"; fi
}
# has NAME TEXT PATTERN...: every fixed string must occur in TEXT.
has() {
	name=$1 text=$2
	shift 2
	missing=
	for pat in "$@"; do
		case $text in
		*"$pat"*) ;;
		*) missing="$missing $pat" ;;
		esac
	done
	if [ -z "$missing" ]; then pass "$name"; else fail "$name" "missing:$missing" "in: $text"; fi
}

if run text -b; then
	check text_default_order "$(pids "$tmp/text")" "1000 2000 4242 3000"
	set -- $(row "$tmp/text" 4242)
	check text_4242_row "$1 $2 $3 $5 $6 $7 $8 $9 ${10} ${11}" \
		"4242 root 3 436 44 300 8 84 352 80.7"
	set -- $(row "$tmp/text" 1000)
	check text_1000_row "$1 $2 $3 $5 $6 $7 $8 $9 ${10} ${11}" \
		"1000 alice 1 115412 21504 65108 18096 18896 58496 47.3"
	set -- $(row "$tmp/text" 2000)
	check text_2000_row "$1 $2 $3 $5 $6 $7 $8 $9 ${10} ${11}" \
		"2000 bob 2 10576 1200 0 9336 40 1240 11.7"
	# PID 3000 has no numa_maps: its node and REMOTE cells must not be
	# numbers (a 0 would claim "no memory there").
	set -- $(row "$tmp/text" 3000)
	bad=
	for cell in "$6" "$7" "$8" "$9" "${10}" "${11}"; do
		case $cell in
		''|*[!0-9.]*) ;;
		*) bad="$bad $cell" ;;
		esac
	done
	if [ "$1 $2 $3" = "3000 root 3" ] && [ -z "$bad" ]; then
		pass text_3000_unknown_not_zero
	else
		fail text_3000_unknown_not_zero "row: $(row "$tmp/text" 3000)"
	fi
	check text_header_counts "$(sed -n 2p "$tmp/text")" \
		"nodes 4  cpus 8 (8 online)  processes 4  tool cpu% TOOLCPU"
	has text_distances "$(grep -E '^ +N[0-3] ' "$tmp/text")" \
		"N0     10     20     20     20" "N1     20     10     20     20" \
		"N2     20     20     10     20" "N3     20     20     20     10"
fi

if run sortpid -b -s PID; then
	check sort_pid_ascending "$(pids "$tmp/sortpid")" "1000 2000 3000 4242"
fi
if run alice -b -u alice; then
	check user_alice_only_1000 "$(pids "$tmp/alice")" "1000"
fi
if run bob -b -u bob; then
	# 3000 runs as bob but with effective uid 0 (setuid root).
	check user_bob_only_2000 "$(pids "$tmp/bob")" "2000"
fi
if run uid0 -b -u 0; then
	check user_uid0 "$(pids "$tmp/uid0")" "4242 3000"
fi
if run pid2000 -b -p 2000; then
	check pid_2000_only "$(pids "$tmp/pid2000")" "2000"
fi

if run json --json; then
	n=$(grep -c '' "$tmp/json")
	if [ "$n" -eq 1 ] && grep -q '^{.*}$' "$tmp/json"; then
		pass json_one_object_line
	else
		fail json_one_object_line "lines: $n"
	fi
	has json_4242 "$(jproc "$tmp/json" 4242)" \
		'"user":"root"' '"last_cpu":6' '"home_node":3' \
		'"node_kb":{"0":44,"1":300,"2":8,"3":84}' \
		'"anon_kb":{"0":0,"1":0,"2":0,"3":48}' \
		'"file_kb":{"0":44,"1":300,"2":8,"3":36}' \
		'"huge_kb":{"0":0,"1":0,"2":0,"3":0}' \
		'"total_kb":436,' '"remote_kb":352,' '"remote_pct":80.7,' \
		'"policy":"default"' '"mappings":15,' '"numa_maps":"ok"'
	has json_1000 "$(jproc "$tmp/json" 1000)" \
		'"user":"alice"' '"threads":3,' '"home_node":1,' \
		'"node_kb":{"0":21504,"1":65108,"2":18096,"3":18896}' \
		'"anon_kb":{"0":19344,"1":56564,"2":16896,"3":16896}' \
		'"file_kb":{"0":2160,"1":352,"2":1200,"3":2000}' \
		'"huge_kb":{"0":0,"1":8192,"2":0,"3":0}' \
		'"total_kb":123604,' '"remote_kb":58496,' '"remote_pct":47.3,' \
		'"rss_kb":115412,' '"mappings":12,' '"numa_maps":"ok"'
	has json_2000_tie_main_thread "$(jproc "$tmp/json" 2000)" \
		'"user":"bob"' '"threads":2,' '"home_node":2,' \
		'"node_kb":{"0":1200,"1":0,"2":9336,"3":40}' \
		'"anon_kb":{"0":0,"1":0,"2":8520,"3":40}' \
		'"file_kb":{"0":1200,"1":0,"2":816,"3":0}' \
		'"total_kb":10576,' '"remote_kb":1240,' '"remote_pct":11.7,'
	has json_3000_unknown_null "$(jproc "$tmp/json" 3000)" \
		'"user":"root"' '"uid":0,' '"home_node":3,' '"node_kb":null' \
		'"anon_kb":null' '"total_kb":null' '"remote_kb":null' \
		'"remote_pct":null' '"numa_maps":"error"'
	has json_nodes "$(cat "$tmp/json")" \
		'"distances":{"nodes":[0,1,2,3],"matrix":[[10,20,20,20],[20,10,20,20],[20,20,10,20],[20,20,20,10]]}' \
		'"id":0,"cpus":[0,1],' '"id":1,"cpus":[2,3],' '"id":2,"cpus":[4,5],' \
		'"id":3,"cpus":[6,7],' '"mem_total_kb":4061184,' '"mem_total_kb":4194304,' \
		'"mem_total_kb":4192256,' '"mem_total_kb":4177920,' \
		'"hugepages":[{"size_kb":2048,"total":64,"free":60}]'
fi

# The cgroup v2 hierarchy of the tree (EXPECTED.md, "Cgroups").
json_cg() {
	sed -e 's|\\/|/|g' -e 's/{"path":/\
{"path":/g' -e 's/,"processes":\[.*//' "$1" | grep "^{\"path\":\"$2\","
}
if run cgjson --json; then
	check json_cgroup_layout "$(grep -o '"cgroup_layout":"[^"]*"' "$tmp/cgjson")" '"cgroup_layout":"v2"'
	check json_cgroup_count "$(json_cg "$tmp/cgjson" '[^"]*' | grep -c '')" 8
	check json_cgroup_order "$(json_cg "$tmp/cgjson" '[^"]*' | sed 's/^{"path":"\([^"]*\)".*/\1/' | tr '\n' ' ')" \
		"/ /system.slice /system.slice/cron.service /system.slice/db.service /system.slice/docker-3f9c2d7e1b0a48d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2.scope /user.slice /user.slice/user-0.slice /user.slice/user-0.slice/session-1.scope "
	has json_cgroup_root "$(json_cg "$tmp/cgjson" /)" '"version":2,' '"processes":6,' \
		'"processes_own":2,' '"node_kb":{"0":22576,"1":65840,"2":25608,"3":17496}' \
		'"total_kb":131520,' '"remote_kb":0,' '"run_nodes":[0,1,2,3]'
	has json_cgroup_db_mems "$(json_cg "$tmp/cgjson" /system.slice/db.service)" \
		'"processes":1,' '"node_kb":{"0":20480,"1":65536,"2":16384,"3":16384}' \
		'"anon_kb":73728,' '"file_kb":45056,' '"memory_current_kb":131072,' \
		'"cpus_effective":[0,1],' '"mems_effective":[0],' '"remote_kb":98304,' \
		'"remote_against":"mems_effective"'
	has json_cgroup_docker_run_nodes "$(json_cg "$tmp/cgjson" '/system.slice/docker-[0-9a-f]*\.scope')" \
		'"node_kb":{"0":1024,"1":0,"2":9216,"3":1024}' '"run_nodes":[0,2],' \
		'"remote_kb":1024,' '"remote_against":"run_nodes"'
	has json_cgroup_session "$(json_cg "$tmp/cgjson" /user.slice/user-0.slice/session-1.scope)" \
		'"processes":2,' '"node_kb":{"0":48,"1":304,"2":8,"3":88}' '"run_nodes":[3],' \
		'"remote_kb":360,'
	has json_cgroup_slice "$(json_cg "$tmp/cgjson" /system.slice)" '"processes":2,' \
		'"processes_own":0,' '"run_nodes":[0,1,2],' '"remote_kb":17408,'
	# No memory.numa_stat (the controller is off there): unknown, not 0.
	has json_cgroup_no_memory "$(json_cg "$tmp/cgjson" /system.slice/cron.service)" \
		'"state":"ok",' '"processes":0,' '"node_kb":null,' '"total_kb":null,' '"remote_kb":null,' \
		'"cpus_effective":[0,1,2,3,4,5,6,7],'
	has json_proc_cgroup "$(json_lines <"$tmp/cgjson" | sed 's|\\/|/|g')" \
		'"pid":1000,' '"cgroup":"/system.slice/db.service"}' \
		'"cgroup":"/user.slice/user-0.slice/session-1.scope"}'
fi

# Why remote (EXPECTED.md, "Why remote").
if run whyjson --json; then
	has json_why_1000_policy "$(jproc "$tmp/whyjson" 1000)" '"remote_cause":"policy"' \
		'"remote_evidence":["49.9 of 57.1 MiB remote are in mappings with policy interleave:0-3"]' \
		'"advice":{"action":"none","node":null,"text":"interleaved by its policy, as intended'
	has json_why_2000_shared_file "$(jproc "$tmp/whyjson" 2000)" '"remote_cause":"shared_file"' \
		'"remote_evidence":["1.2 of 1.2 MiB remote are file pages (page cache)"]' \
		'"advice":{"action":"none","node":null,"text":"page cache on node 0,'
	has json_why_4242_none "$(jproc "$tmp/whyjson" 4242)" '"remote_cause":"none"' '"remote_evidence":[]'
	has json_why_3000_unknown_null "$(jproc "$tmp/whyjson" 3000)" '"remote_cause":null'
fi
# The kernel's view (EXPECTED.md, "The kernel's NUMA view").
if run kjson --json; then
	has json_balancing "$(cat "$tmp/kjson")" '"numa_balancing":{"mode":1,"mode_name":"NUMA",' \
		'"pgmigrate_success":1234,"pgmigrate_fail":5,"pgpromote_success":null' \
		'"memory_tiers":[{"tier":4,"nodes":[0,1,2,3],"order":0,"has_cpus":true,"read_latency_ns":null,' \
		'"demotion_enabled":null,"promote_rate_limit_mbps":null,' '"memory_tier":4,"memory_tier_order":0,"hmat":null}'
	has json_racc_1000 "$(jproc "$tmp/kjson" 1000)" '"remote_access_pct":30.0,' \
		'"kernel_migrated_pages":384,' '"kernel_migrate_per_s":null,'
	has json_racc_2000 "$(jproc "$tmp/kjson" 2000)" '"remote_access_pct":null,' '"kernel_migrated_pages":0,'
	has json_racc_4242 "$(jproc "$tmp/kjson" 4242)" '"remote_access_pct":null,' '"kernel_migrated_pages":null,'
fi
if run ktext -b -o pid,racc; then
	check text_balancing_line "$(grep '^numa balancing' "$tmp/ktext")" \
		"numa balancing: NUMA (kernel.numa_balancing=1)  hint faults - (local -)  numa pages migrated -  pgmigrate -, failed -  promoted -  demoted - kswapd, - direct"
	check text_tiers_line "$(grep '^memory tiers' "$tmp/ktext")" "memory tiers: N0:tier4 N1:tier4 N2:tier4 N3:tier4"
	check text_racc_column "$(sed -n '/^ *PID  *RACC/,$p' "$tmp/ktext" | awk 'NF { print $1, $2 }' | tr '\n' ' ')" \
		"PID RACC% 1000 30.0 2000 - 4242 - 3000 - "
fi
if run whytext -b -o pid,why,remote; then
	check text_why_column "$(sed -n '/^ *PID  *WHY/,$p' "$tmp/whytext" | awk 'NF { print $1, $2 }' | tr '\n' ' ')" \
		"PID WHY 1000 policy 2000 shared_file 4242 none 3000 - "
fi

if run jp1000 --json -p 1000; then
	n=$(json_lines <"$tmp/jp1000" | grep -c '^{"pid":')
	check json_p1000_one_process "$n $(jproc "$tmp/jp1000" 1000 | grep -c '"home_node":1,')" "1 1"
fi

[ $fails -eq 0 ]
