/* test_access_pick.c - whose turn it is to be watched (access_pick.h):
 * candidates built by hand, the clock passed in. */
#include "access_pick.h"
#include "check.h"

#define MAXT 16
#define TURN 20.0

static bool has(const int *v, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

/* One turn at time now: who is picked; their turn starts (last_on is when
 * it ended, as the sampler keeps it). */
static size_t turn(struct access_cand *c, size_t nc, double now, int *out)
{
	for (size_t i = 0; i < nc; i++)
		if (c[i].turn_start >= 0 && now - c[i].turn_start >= TURN) {
			c[i].last_on = now;
			c[i].turn_start = -1;
		}
	size_t n = access_pick(c, nc, now, TURN, out, 0, MAXT);
	for (size_t i = 0; i < nc; i++)
		if (has(out, n, c[i].pid) && c[i].turn_start < 0)
			c[i].turn_start = now;
	return n;
}

/* One tier: only remote memory is worth a watch; the most remote first
 * among the never watched. */
static void remote_only_one_tier(void)
{
	struct access_cand c[] = {
		{ 10, 0, 0, -1, -1 }, { 11, 500, 0, -1, -1 }, { 12, 9000, 0, -1, -1 },
	};
	int out[MAXT];
	size_t n = access_pick(c, 3, 100, TURN, out, 0, MAXT);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(out[0], 12);
	CHECK_EQ_INT(out[1], 11);
}

/* 20 remote processes and 5 entirely on the fast tier, 16 slots: in
 * turns of 20 s every one of the 25 is watched within three turns, the
 * fast-tier ones too (COLDFAST needs their heat), and no turn holds a
 * process twice. */
static void fast_tier_takes_turns(void)
{
	struct access_cand c[25];
	for (int i = 0; i < 25; i++)
		c[i] = (struct access_cand){ 100 + i, i < 20 ? 1000 + i : 0, i < 20 ? 0 : 4096, -1, -1 };
	bool seen[25] = { false };
	int out[MAXT];
	for (int t = 0; t < 3; t++) {
		size_t n = turn(c, 25, 1000 + t * TURN, out);
		CHECK_EQ_INT(n, MAXT);
		for (size_t k = 0; k < n; k++) {
			CHECK(!has(out, k, out[k]));
			seen[out[k] - 100] = true;
		}
		if (t == 0)     /* the remote ones first, the most remote first */
			CHECK(out[0] == 119 && !has(out, n, 120));
	}
	int nseen = 0;
	for (int i = 0; i < 25; i++)
		nseen += seen[i];
	CHECK_EQ_INT(nseen, 25);
	CHECK(seen[20] && seen[24]);
}

/* A turn going on keeps its slot before anyone watched longer ago; the
 * selected (already in out) are not added twice; a turn over gives way. */
static void turn_goes_on(void)
{
	struct access_cand c[] = {
		{ 1, 100, 0, 50, 990 },     /* its turn began 10 s ago */
		{ 2, 9000, 0, -1, -1 },     /* never watched, most remote */
		{ 3, 100, 0, 10, 960 },     /* its turn is over (40 s) */
	};
	int out[MAXT] = { 2 };
	size_t n = access_pick(c, 3, 1000, TURN, out, 1, 2);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(out[0], 2);
	CHECK_EQ_INT(out[1], 1);
	n = access_pick(c, 3, 1000, TURN, out, 0, 3);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(out[0], 1);
	CHECK_EQ_INT(out[1], 2);     /* never watched before watched at 10 */
	CHECK_EQ_INT(out[2], 3);
}

int main(void)
{
	RUN_TEST(remote_only_one_tier);
	RUN_TEST(fast_tier_takes_turns);
	RUN_TEST(turn_goes_on);
	return CHECK_DONE();
}
