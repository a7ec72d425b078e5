/* proc_live_users.c - what the live backend's scan (proc_live.c), its
 * records (proc_live_rec.c) and threads (proc_live_thr.c) share, below
 * all three: the user table (uid -> name, read once per uid) and array
 * growth. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "proc_live_int.h"

int live_grow(void **v, size_t *cap, size_t need, size_t size)
{
	void *n = buf_grow_array(*v, cap, need, size);
	if (!n)
		return -ENOMEM;
	*v = n;
	return 0;
}

/* The user table: uid -> name, sorted by uid, kept for the source's life. */
const char *live_user(struct live *lv, int64_t uid, const char *name)
{
	size_t lo = 0, hi = lv->nusers;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (lv->users[mid].uid == uid)
			return lv->users[mid].name;
		if (lv->users[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	char digits[24];
	if (!name) {
		struct passwd *pw = uid >= 0 ? getpwuid((uid_t)uid) : NULL;
		if (pw) {
			name = pw->pw_name;
		} else {
			snprintf(digits, sizeof(digits), "%lld", (long long)uid);
			name = uid >= 0 ? digits : "?";
		}
	}
	if (lv->nusers == lv->ucap) {
		size_t c = lv->ucap ? lv->ucap * 2 : 16;
		struct live_user *u = realloc(lv->users, c * sizeof(*u));
		if (!u)
			return NULL;
		lv->users = u;
		lv->ucap = c;
	}
	char *copy = strndup(name, 32);
	if (!copy)
		return NULL;
	memmove(&lv->users[lo + 1], &lv->users[lo], (lv->nusers - lo) * sizeof(*lv->users));
	lv->users[lo] = (struct live_user){ uid, copy };
	lv->nusers++;
	return copy;
}
