/* fleet_curl.c - libcurl through dlopen: the program does not link it, so
 * the monitor and the exporter, which never ask a Prometheus server, do
 * not map it and the TLS libraries it pulls in (some 5 MiB resident);
 * --fleet loads it (fleet_curl_load). The functions below are libcurl's
 * own, by name and prototype, forwarded to the library's entry points. */
#include "fleet_int.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* Our own definitions of curl_easy_setopt and curl_easy_getinfo: not
 * curl.h's type-checking macros of the same names. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#define CURL_SONAME "libcurl.so.4"

/* The library's entry points, filled once by fleet_curl_load (the
 * program's own link table for this one library). */
static struct {
	void *lib;
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_perform)(CURL *);
	char *(*easy_escape)(CURL *, const char *, int);
	const char *(*easy_strerror)(CURLcode);
	void (*free)(void *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	CURLMcode (*multi_cleanup)(CURLM *);
} lc;

int fleet_curl_load(char *err, size_t n)
{
	if (lc.lib)
		return 0;
	void *h = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, n, "--fleet needs %s (apt-get install libcurl4): %s", CURL_SONAME, dlerror());
		return -ENOENT;
	}
	struct { void **to; const char *name; } syms[] = {
		{ (void **)&lc.global_init, "curl_global_init" },
		{ (void **)&lc.easy_init, "curl_easy_init" },
		{ (void **)&lc.easy_setopt, "curl_easy_setopt" },
		{ (void **)&lc.easy_getinfo, "curl_easy_getinfo" },
		{ (void **)&lc.easy_cleanup, "curl_easy_cleanup" },
		{ (void **)&lc.easy_perform, "curl_easy_perform" },
		{ (void **)&lc.easy_escape, "curl_easy_escape" },
		{ (void **)&lc.easy_strerror, "curl_easy_strerror" },
		{ (void **)&lc.free, "curl_free" },
		{ (void **)&lc.slist_append, "curl_slist_append" },
		{ (void **)&lc.slist_free_all, "curl_slist_free_all" },
		{ (void **)&lc.multi_init, "curl_multi_init" },
		{ (void **)&lc.multi_add_handle, "curl_multi_add_handle" },
		{ (void **)&lc.multi_remove_handle, "curl_multi_remove_handle" },
		{ (void **)&lc.multi_perform, "curl_multi_perform" },
		{ (void **)&lc.multi_poll, "curl_multi_poll" },
		{ (void **)&lc.multi_info_read, "curl_multi_info_read" },
		{ (void **)&lc.multi_cleanup, "curl_multi_cleanup" },
	};
	for (size_t i = 0; i < sizeof(syms) / sizeof(*syms); i++) {
		if (!(*syms[i].to = dlsym(h, syms[i].name))) {
			snprintf(err, n, "%s has no %s (libcurl 7.66 or later is needed)", CURL_SONAME,
				 syms[i].name);
			dlclose(h);
			return -ENOENT;
		}
	}
	lc.lib = h;
	return 0;
}

CURLcode curl_global_init(long flags)
{
	return lc.global_init(flags);
}

CURL *curl_easy_init(void)
{
	return lc.easy_init();
}

/* An option's argument is a long, a pointer, a function pointer or a
 * curl_off_t, by the option's number (curl.h's CURLOPTTYPE_*). */
CURLcode curl_easy_setopt(CURL *c, CURLoption o, ...)
{
	va_list ap;
	va_start(ap, o);
	CURLcode rc;
	if (o < CURLOPTTYPE_OBJECTPOINT)
		rc = lc.easy_setopt(c, o, va_arg(ap, long));
	else if (o < CURLOPTTYPE_FUNCTIONPOINT)
		rc = lc.easy_setopt(c, o, va_arg(ap, void *));
	else if (o < CURLOPTTYPE_OFF_T)
		rc = lc.easy_setopt(c, o, va_arg(ap, void (*)(void)));
	else if (o < CURLOPTTYPE_BLOB)
		rc = lc.easy_setopt(c, o, va_arg(ap, curl_off_t));
	else
		rc = lc.easy_setopt(c, o, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO's argument is a pointer. */
CURLcode curl_easy_getinfo(CURL *c, CURLINFO i, ...)
{
	va_list ap;
	va_start(ap, i);
	CURLcode rc = lc.easy_getinfo(c, i, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

void curl_easy_cleanup(CURL *c)
{
	lc.easy_cleanup(c);
}

CURLcode curl_easy_perform(CURL *c)
{
	return lc.easy_perform(c);
}

char *curl_easy_escape(CURL *c, const char *s, int n)
{
	return lc.easy_escape(c, s, n);
}

const char *curl_easy_strerror(CURLcode rc)
{
	return lc.easy_strerror(rc);
}

void curl_free(void *p)
{
	lc.free(p);
}

struct curl_slist *curl_slist_append(struct curl_slist *l, const char *s)
{
	return lc.slist_append(l, s);
}

void curl_slist_free_all(struct curl_slist *l)
{
	lc.slist_free_all(l);
}

CURLM *curl_multi_init(void)
{
	return lc.multi_init();
}

CURLMcode curl_multi_add_handle(CURLM *m, CURL *c)
{
	return lc.multi_add_handle(m, c);
}

CURLMcode curl_multi_remove_handle(CURLM *m, CURL *c)
{
	return lc.multi_remove_handle(m, c);
}

CURLMcode curl_multi_perform(CURLM *m, int *running)
{
	return lc.multi_perform(m, running);
}

CURLMcode curl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int nfds, int ms, int *ret)
{
	return lc.multi_poll(m, fds, nfds, ms, ret);
}

CURLMsg *curl_multi_info_read(CURLM *m, int *left)
{
	return lc.multi_info_read(m, left);
}

CURLMcode curl_multi_cleanup(CURLM *m)
{
	return lc.multi_cleanup(m);
}
