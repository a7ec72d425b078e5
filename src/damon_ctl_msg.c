/* damon_ctl_msg.c - the message a DAMON control call leaves in c->msg
 * (damon_ctl_int.h): below the control (damon_ctl.c), the request in
 * flight (damon_ctl_req.c) and the record (damon_ctl_rec.c). */
#include <stdarg.h>
#include <stdio.h>

#include "damon_ctl_int.h"

int damon_ctl_say(struct damon_ctl *c, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	return rc;
}
