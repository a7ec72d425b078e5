/* mhd_load.c - libmicrohttpd through dlopen (see mhd_load.h). */
#include "mhd_load.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <microhttpd.h>

#define MHD_SONAME "libmicrohttpd.so.12"

/* The library's entry points, filled once by mhd_load (the program's own
 * link table for this one library). */
static struct {
	void *lib;
	struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback,
					      void *, MHD_AccessHandlerCallback, void *, va_list);
	void (*stop_daemon)(struct MHD_Daemon *);
	enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
	struct MHD_Response *(*create_response_from_buffer)(size_t, void *,
							    enum MHD_ResponseMemoryMode);
	void (*destroy_response)(struct MHD_Response *);
	const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *,
								enum MHD_ConnectionInfoType, ...);
	int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind,
				     MHD_KeyValueIterator, void *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int,
					  struct MHD_Response *);
} mhd;

int mhd_load(char *err, size_t errsz)
{
	if (mhd.lib)
		return 0;
	void *h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errsz, "--serve needs %s (apt-get install libmicrohttpd12): %s",
			 MHD_SONAME, dlerror());
		return -ENOENT;
	}
	struct { void **to; const char *name; } syms[] = {
		{ (void **)&mhd.start_daemon_va, "MHD_start_daemon_va" },
		{ (void **)&mhd.stop_daemon, "MHD_stop_daemon" },
		{ (void **)&mhd.add_response_header, "MHD_add_response_header" },
		{ (void **)&mhd.create_response_from_buffer, "MHD_create_response_from_buffer" },
		{ (void **)&mhd.destroy_response, "MHD_destroy_response" },
		{ (void **)&mhd.get_connection_info, "MHD_get_connection_info" },
		{ (void **)&mhd.get_connection_values, "MHD_get_connection_values" },
		{ (void **)&mhd.queue_response, "MHD_queue_response" },
	};
	for (size_t i = 0; i < sizeof(syms) / sizeof(*syms); i++) {
		if (!(*syms[i].to = dlsym(h, syms[i].name))) {
			snprintf(err, errsz, "%s has no %s", MHD_SONAME, syms[i].name);
			dlclose(h);
			return -ENOENT;
		}
	}
	mhd.lib = h;
	return 0;
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port,
				    MHD_AcceptPolicyCallback apc, void *apc_cls,
				    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	va_list ap;
	va_start(ap, dh_cls);
	struct MHD_Daemon *d = mhd.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}

void MHD_stop_daemon(struct MHD_Daemon *d)
{
	mhd.stop_daemon(d);
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *header,
					const char *content)
{
	return mhd.add_response_header(r, header, content);
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer,
						     enum MHD_ResponseMemoryMode mode)
{
	return mhd.create_response_from_buffer(size, buffer, mode);
}

void MHD_destroy_response(struct MHD_Response *r)
{
	mhd.destroy_response(r);
}

/* serve.c asks for kinds that take no further argument. */
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c,
							 enum MHD_ConnectionInfoType t, ...)
{
	return mhd.get_connection_info(c, t);
}

int MHD_get_connection_values(struct MHD_Connection *c, enum MHD_ValueKind kind,
			      MHD_KeyValueIterator it, void *it_cls)
{
	return mhd.get_connection_values(c, kind, it, it_cls);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status,
				   struct MHD_Response *r)
{
	return mhd.queue_response(c, status, r);
}
