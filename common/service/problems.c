/* problems.c - every problem of a configuration in one preflight
 * (problems.h). */
#include "common/service/problems.h"

#include "common/base/log.h"
#include "common/base/xwrap.h"

int
problems_note(struct problems *p, int code, const char *msg)
{
	if (!p->preflight)
		return code;
	log_msg(LOG_ERROR, "%s", msg);
	p->n++;
	return 0;
}

int
problems_status(const struct problems *p)
{
	return p->n ? EXIT_CONFIG : 0;
}
