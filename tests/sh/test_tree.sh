#!/bin/sh
# The tree view (F5, t) on a copy of the recorded tree with a process
# family: 1000 -> 2000 -> 3000 and 1000 -> 4242. Children sit under their
# parent, indented one step per generation, siblings in the sort order;
# a process whose parent the filter leaves out moves up to the top level;
# a process whose parent is itself (a broken tree) does not loop.
PROG=${PROG:-./numatop-tui}
. tests/sh/lib.sh
need tmux tmux
T=$(mktemp -d)
trap 'tmux kill-server 2>/dev/null; rm -rf "$T"' EXIT
tui_init
cp -r tests/trees/opteron4 "$T/t"
sed -i 's/^2000 (web) S 1 /2000 (web) S 1000 /' "$T/t/proc/2000/stat"
sed -i 's/^3000 (secret) S 1 /3000 (secret) S 2000 /' "$T/t/proc/3000/stat"
sed -i 's/^4242 (cat) R 4200 /4242 (cat) R 1000 /' "$T/t/proc/4242/stat"
rows() { screen | grep -E '^ +[0-9]+ +(alice|bob|root) ' | awk '{print $1}' | tr '\n' ' '; }
indent() { screen | grep -E "^ +$1 " | sed 's/.*[0-9.-] \{1,\}\([ `|-]*\)[a-z/].*/\1/' | tr -cd ' `-' | wc -c; }
tui_start 160 40 "$PROG --root $T/t"
keys t
wait_for '[tree]'
got=$(rows)
# REMOTE descending among siblings: 2000 (1240K) before 4242 (352K).
[ "$got" = "1000 2000 3000 4242 " ] && ok tree_order || bad tree_order "$got"
screen | grep -qE '^ +2000 .*  `-/usr/bin/web' && screen | grep -qE '^ +3000 .*    `-/usr/local/bin/secret' \
	&& ok tree_indent || bad tree_indent "$(screen | grep -E '^ +[0-9]+ +(alice|bob|root) ')"
keys I
got=$(rows)
[ "$got" = "1000 4242 2000 3000 " ] && ok tree_invert_siblings || bad tree_invert_siblings "$got"
keys F4; keys secret Enter
got=$(rows)
# 3000 matches but its parent does not: it moves up to the top level.
[ "$got" = "3000 " ] && screen | grep -qE '^ +3000 .*[0-9-] +/usr/local/bin/secret' \
	&& ! screen | grep -q '`-/usr/local/bin/secret' \
	&& ok tree_filter_moves_up || bad tree_filter_moves_up "$got $(screen | grep -E "^ +3000")"
keys F4; keys C-u Enter
got=$(rows)
[ "$got" = "1000 4242 2000 3000 " ] && ok tree_filter_cleared || bad tree_filter_cleared "$got"
keys q
# A process that is its own parent, and a two-process cycle: no hang, the
# others still shown.
sed -i 's/^3000 (secret) S 2000 /3000 (secret) S 3000 /' "$T/t/proc/3000/stat"
tui_start 160 40 "$PROG --root $T/t"
keys t
wait_for '[tree]'
got=$(rows)
[ "$got" = "1000 2000 4242 " ] && ok tree_self_parent || bad tree_self_parent "$got"
keys q
