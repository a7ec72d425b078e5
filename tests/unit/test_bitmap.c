/* test_bitmap.c - cpulist and cpumap formats, dynamic sizes. */
#include <stdint.h>
#include <stdlib.h>

#include "bitmap.h"
#include "buf.h"
#include "check.h"

static void list_basic(void)
{
	struct bitmap b;
	bitmap_init(&b);
	CHECK_EQ_INT(bitmap_parse_list(&b, "0-3,8,10-11", 11), 0);
	CHECK_EQ_INT(bitmap_count(&b), 7);
	CHECK(bitmap_test(&b, 3) && !bitmap_test(&b, 4) && bitmap_test(&b, 11));
	char s[64];
	bitmap_format_list(&b, s, sizeof(s));
	CHECK_EQ_STR(s, "0-3,8,10-11");
	bitmap_free(&b);
}

static void list_quirks(void)
{
	struct bitmap b;
	bitmap_init(&b);
	/* Binary sysfs attribute: "0-31\n\0". */
	CHECK_EQ_INT(bitmap_parse_list(&b, "0-31\n\0", 6), 0);
	CHECK_EQ_INT(bitmap_count(&b), 32);
	/* Empty cpulist of a CPU-less node. */
	CHECK_EQ_INT(bitmap_parse_list(&b, "\n", 1), 0);
	CHECK(bitmap_empty(&b));
	/* Non-contiguous SMT numbering. */
	CHECK_EQ_INT(bitmap_parse_list(&b, "0-7,16-23", 9), 0);
	CHECK_EQ_INT(bitmap_count(&b), 16);
	CHECK(!bitmap_test(&b, 8) && bitmap_test(&b, 16));
	/* Garbage and hostile values. */
	CHECK(bitmap_parse_list(&b, "0-", 2) < 0);
	CHECK(bitmap_parse_list(&b, "3-1", 3) < 0);
	CHECK(bitmap_parse_list(&b, "x", 1) < 0);
	CHECK(bitmap_parse_list(&b, "1,,2", 4) < 0);
	CHECK(bitmap_parse_list(&b, "99999999999", 11) < 0);
	/* Node ids up to 1023 and beyond are fine. */
	CHECK_EQ_INT(bitmap_parse_list(&b, "1023", 4), 0);
	CHECK(bitmap_test(&b, 1023));
	CHECK_EQ_INT(bitmap_parse_list(&b, "4095", 4), 0);
	CHECK(bitmap_test(&b, 4095) && bitmap_count(&b) == 1);
	bitmap_free(&b);
}

static void mask_formats(void)
{
	struct bitmap b;
	bitmap_init(&b);
	/* Article table 5.4: node1 cpumap 0000000c = CPUs 2,3. */
	CHECK_EQ_INT(bitmap_parse_mask(&b, "0000000c\n", 9), 0);
	char s[64];
	bitmap_format_list(&b, s, sizeof(s));
	CHECK_EQ_STR(s, "2-3");
	/* Groups of 32 bits, most significant first. */
	CHECK_EQ_INT(bitmap_parse_mask(&b, "00000001,00000000", 17), 0);
	CHECK(bitmap_test(&b, 32) && bitmap_count(&b) == 1);
	/* 48-bit mask with a short leading group. */
	CHECK_EQ_INT(bitmap_parse_mask(&b, "fc00,00000000", 13), 0);
	bitmap_format_list(&b, s, sizeof(s));
	CHECK_EQ_STR(s, "42-47");
	/* All-zero mask = no CPUs. */
	CHECK_EQ_INT(bitmap_parse_mask(&b, "00000000,00000000\n\0", 19), 0);
	CHECK(bitmap_empty(&b));
	CHECK(bitmap_parse_mask(&b, "0000000g", 8) < 0);
	CHECK(bitmap_parse_mask(&b, "123456789", 9) < 0);
	CHECK(bitmap_parse_mask(&b, "1,,2", 4) < 0);
	bitmap_free(&b);
}

static void mask_4096_bits(void)
{
	/* 128 groups: the top bit is CPU 4095. */
	char m[128 * 9 + 1];
	size_t o = 0;
	for (int g = 0; g < 128; g++)
		o += (size_t)snprintf(m + o, sizeof(m) - o, "%s%s", g ? "," : "",
				      g == 0 ? "80000000" : g == 127 ? "00000001" : "00000000");
	struct bitmap b;
	bitmap_init(&b);
	CHECK_EQ_INT(bitmap_parse_mask(&b, m, o), 0);
	CHECK_EQ_INT(bitmap_count(&b), 2);
	CHECK(bitmap_test(&b, 0) && bitmap_test(&b, 4095));
	CHECK_EQ_INT(bitmap_next(&b, 1), 4095);
	CHECK_EQ_INT(bitmap_next(&b, 4096), -1);
	bitmap_free(&b);
}

static void set_ops(void)
{
	struct bitmap a, b;
	bitmap_init(&a);
	bitmap_init(&b);
	bitmap_set(&a, 1);
	bitmap_set(&b, 200);
	CHECK(!bitmap_equal(&a, &b));
	bitmap_or(&a, &b);
	CHECK(bitmap_test(&a, 1) && bitmap_test(&a, 200));
	bitmap_copy(&b, &a);
	CHECK(bitmap_equal(&a, &b));
	char s[4];
	size_t need = bitmap_format_list(&a, s, sizeof(s));
	CHECK_EQ_INT(need, 5);   /* "1,200" does not fit: length reported */
	CHECK(strlen(s) < sizeof(s));
	bitmap_free(&a);
	bitmap_free(&b);
}

/* The growable byte buffer and array helper the readers share. */
static void buffers(void)
{
	struct buf b = { 0 };
	CHECK_EQ_INT(buf_append(&b, "abc", 3), 0);
	CHECK_EQ_INT(buf_append(&b, "de", 2), 0);
	CHECK(b.len == 5 && b.cap >= 6);
	CHECK_EQ_STR(b.data, "abcde");
	buf_clear(&b);
	CHECK(b.len == 0);
	buf_free(&b);
	size_t cap = 0;
	int *z = buf_grow_array(NULL, &cap, 0, sizeof(int));  /* empty: still an array */
	CHECK(z && cap == 1);
	free(z);
	cap = 0;
	int *v = buf_grow_array(NULL, &cap, 3, sizeof(int));
	CHECK(v && cap == 3);
	int *w = buf_grow_array(v, &cap, 2, sizeof(int));   /* fits: same */
	CHECK(w == v && cap == 3);
	if (w)
		v = w;
	w = buf_grow_array(v, &cap, 4, sizeof(int));        /* doubles */
	CHECK(w && cap == 6);
	if (w)
		v = w;
	w = buf_grow_array(v, &cap, 20, sizeof(int));       /* or to want */
	CHECK(w && cap == 20);
	if (w)
		v = w;
	size_t c2 = cap;
	CHECK(buf_grow_array(v, &c2, SIZE_MAX / 2, 16) == NULL && c2 == cap);  /* overflow */
	free(v);
}

int main(void)
{
	RUN_TEST(buffers);
	RUN_TEST(list_basic);
	RUN_TEST(list_quirks);
	RUN_TEST(mask_formats);
	RUN_TEST(mask_4096_bits);
	RUN_TEST(set_ops);
	return CHECK_DONE();
}
