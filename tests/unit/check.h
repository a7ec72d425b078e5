/* check.h - a tiny test harness. Each CHECK prints nothing on success and
 * "FAIL ..." on failure; each TEST(name) block ends with one "PASS name" or
 * "FAIL name" line, which tests/run.sh counts. SKIP lines count as skipped. */
#ifndef NUMATOP_CHECK_H
#define NUMATOP_CHECK_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failed_in_test;
static int check_total_failed;

#define CHECK(cond) do { \
	if (!(cond)) { \
		printf("  check failed: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		check_failed_in_test = 1; \
	} } while (0)

#define CHECK_EQ_INT(a, b) do { \
	long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
	if (check_a_ != check_b_) { \
		printf("  check failed: %s:%d: %s == %s (%lld != %lld)\n", \
		       __FILE__, __LINE__, #a, #b, check_a_, check_b_); \
		check_failed_in_test = 1; \
	} } while (0)

#define CHECK_EQ_STR(a, b) do { \
	const char *check_a_ = (a), *check_b_ = (b); \
	if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) { \
		printf("  check failed: %s:%d: %s == %s (\"%s\" != \"%s\")\n", \
		       __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)", \
		       check_b_ ? check_b_ : "(null)"); \
		check_failed_in_test = 1; \
	} } while (0)

/* Run fn as one named test. */
#define RUN_TEST(fn) do { \
	check_failed_in_test = 0; \
	fn(); \
	printf("%s %s\n", check_failed_in_test ? "FAIL" : "PASS", #fn); \
	check_total_failed += check_failed_in_test; \
	fflush(stdout); \
	} while (0)

#define SKIP_TEST(name, why) printf("SKIP %s: %s\n", name, why)

#define CHECK_DONE() (check_total_failed ? 1 : 0)

#endif
