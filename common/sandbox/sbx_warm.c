/* sbx_warm.c - the Python loader of a warm slot and its record
 * (sbx_warm.h). */
#include "common/sandbox/sbx_warm.h"

#include <stdlib.h>
#include <string.h>

#include "common/base/bounded_rw.h"

/* Indented by one space: the source travels in argv. */
const char sbx_warm_python_loader[] =
"import os, sys\n"
"def _airlock_warm():\n"
" def take(n):\n"
"  parts = []\n"
"  while n:\n"
"   b = os.read(0, n)\n"
"   if not b:\n"
"    os._exit(125)\n"
"   parts.append(b)\n"
"   n -= len(b)\n"
"  return b\"\".join(parts)\n"
" main = None\n"
" for _ in range(int.from_bytes(take(2), \"big\")):\n"
"  head = take(6)\n"
"  name = take(int.from_bytes(head[:2], \"big\"))\n"
"  data = take(int.from_bytes(head[2:], \"big\"))\n"
"  fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL |\n"
"   os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)\n"
"  view = memoryview(data)\n"
"  while view:\n"
"   view = view[os.write(fd, view):]\n"
"  os.close(fd)\n"
"  main = main or (os.fsdecode(name), data)\n"
" name, src = main\n"
" path = os.path.join(os.getcwd(), name)\n"
" sys.argv[:] = [name]\n"
" sys.orig_argv[:] = [sys.orig_argv[0], \"-E\", \"-s\", name]\n"
" sys.path[0] = os.path.dirname(path)\n"
" m = type(sys)(\"__main__\")\n"
" m.__dict__.update(__file__=path, __cached__=None,\n"
"  __builtins__=__builtins__, __annotations__={},\n"
"  __loader__=sys.modules[\"_frozen_importlib_external\"]\n"
"  .SourceFileLoader(\"__main__\", path))\n"
" sys.modules[\"__main__\"] = m\n"
" return compile(src, path, \"exec\", dont_inherit=True), m.__dict__\n"
"try:\n"
" exec(*_airlock_warm())\n"
"except BaseException as e:\n"
" for f in (sys.stderr, sys.stdout):\n"
"  try:\n"
"   f.flush()\n"
"  except Exception:\n"
"   pass\n"
" if isinstance(e, SystemExit):\n"
"  raise\n"
" def _airlock_strip(t, v, tb, hook=sys.excepthook,\n"
"   own=globals()):\n"
"  while tb is not None and tb.tb_frame.f_globals is own:\n"
"   tb = tb.tb_next\n"
"  return hook(t, v.with_traceback(tb), tb)\n"
" sys.excepthook = _airlock_strip\n"
" raise\n";

int
sbx_warm_record(const struct sbx_job *job, uint8_t **out, size_t *len)
{
	size_t n = 2;
	struct wr w;

	if (job->nfiles == 0 || job->nfiles > UINT16_MAX)
		return -1;
	for (size_t i = 0; i < job->nfiles; i++) {
		size_t name = strlen(job->files[i].name);

		if (name > UINT16_MAX || job->files[i].len > UINT32_MAX ||
		    job->files[i].len > SIZE_MAX - n - 6 - name)
			return -1;
		n += 6 + name + job->files[i].len;
	}
	if (!(*out = malloc(n)))
		return -1;
	w = wr_init(*out, n);
	wr_u16(&w, (uint16_t)job->nfiles);
	for (size_t i = 0; i < job->nfiles; i++) {
		size_t name = strlen(job->files[i].name);

		wr_u16(&w, (uint16_t)name);
		wr_u32(&w, (uint32_t)job->files[i].len);
		wr_bytes(&w, job->files[i].name, name);
		wr_bytes(&w, job->files[i].data, job->files[i].len);
	}
	if (w.bad || w.off != n) {
		free(*out);
		*out = NULL;
		return -1;
	}
	*len = n;
	return 0;
}

int
sbx_warm_fits(const struct sbx_job *slot, const struct sbx_job *job)
{
	/* the loader gives the tool no argv words: a job with some starts
	 * cold */
	/* the loader compiles the first file as source: one python3 would
	 * run otherwise (a zipapp, a .pyc: never without a NUL byte, which
	 * source cannot hold) starts cold, where python3 runs it */
	if (job->lang == SBX_LANG_PYTHON && job->nfiles > 0 &&
	    memchr(job->files[0].data, 0, job->files[0].len))
		return 0;
	return job->lang == slot->lang && job->nargs == 0 &&
	    job->lim.memory == slot->lim.memory
	    && job->lim.pids == slot->lim.pids && job->disk == slot->disk &&
	    sbx_job_cpu_seconds(&job->lim) ==
	    sbx_job_cpu_seconds(&slot->lim);
}
