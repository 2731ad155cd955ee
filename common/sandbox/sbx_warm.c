/* sbx_warm.c - the Python loader of a warm slot, its record and the
 * record's decoder (sbx_warm.h). */
#include "common/sandbox/sbx_warm.h"

#include <stddef.h>
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

/* The parts of the record, in the order a file's are read. */
enum { PART_COUNT, PART_HEAD, PART_NAME, PART_DATA };

void
sbx_warm_rec_init(struct sbx_warm_rec *r)
{
	/* not data: 4 MiB, and only its written bytes are ever read */
	memset(r, 0, offsetof(struct sbx_warm_rec, data));
	r->state = SBX_WARM_NEED;
	r->part = PART_COUNT;
}

/* The length of the part being read (its lengths already checked). */
static size_t
part_len(const struct sbx_warm_rec *r)
{
	switch (r->part) {
	case PART_COUNT:
		return 2;
	case PART_HEAD:
		return 6;
	case PART_NAME:
		return r->nlen;
	default:
		return r->dlen;
	}
}

/* Where the part's bytes go: within the caps part_done checked. */
static uint8_t *
part_buf(struct sbx_warm_rec *r)
{
	switch (r->part) {
	case PART_COUNT:
	case PART_HEAD:
		return r->hdr;
	case PART_NAME:
		return (uint8_t *)r->names[r->nfiles];
	default:
		return r->data + r->total;
	}
}

/* The part is whole: check it and go on to the next. The new state. */
static int
part_done(struct sbx_warm_rec *r)
{
	struct rd h = rd_init(r->hdr, r->have);
	uint16_t v16;

	switch (r->part) {
	case PART_COUNT:
		if (rd_u16(&h, &v16) != 0 || v16 == 0 || v16 > SBX_FILES_MAX)
			return SBX_WARM_BAD;
		r->count = v16;
		r->part = PART_HEAD;
		break;
	case PART_HEAD:
		/* the caps of names[] and data[], checked before either is
		 * written; the name's own check follows when it is whole */
		if (rd_u16(&h, &v16) != 0 || rd_u32(&h, &r->dlen) != 0 ||
		    v16 == 0 || v16 > SBX_NAME_MAX ||
		    r->dlen > SBX_FILE_MAX ||
		    r->dlen > SBX_FILES_TOTAL_MAX - r->total)
			return SBX_WARM_BAD;
		r->nlen = v16;
		r->part = PART_NAME;
		break;
	case PART_NAME:
		/* as a request's are checked: [A-Za-z0-9._-], not '.' or
		 * '-' first (so no NUL, no '/') */
		if (!sbx_name_valid((const uint8_t *)r->names[r->nfiles],
		    r->nlen))
			return SBX_WARM_BAD;
		r->names[r->nfiles][r->nlen] = '\0';
		r->part = PART_DATA;
		break;
	default:
		r->files[r->nfiles] = (struct sbx_file_data){
			r->names[r->nfiles], r->data + r->total, r->dlen };
		r->total += r->dlen;
		if (++r->nfiles == r->count)
			return SBX_WARM_OK;
		r->part = PART_HEAD;
		break;
	}
	r->have = 0;
	return SBX_WARM_NEED;
}

size_t
sbx_warm_rec_want(const struct sbx_warm_rec *r)
{
	return r->state == SBX_WARM_NEED ? part_len(r) - r->have : 0;
}

enum sbx_warm_rc
sbx_warm_rec_feed(struct sbx_warm_rec *r, const uint8_t *p, size_t n,
    size_t *used)
{
	size_t off = 0;

	*used = 0;
	if (r->state != SBX_WARM_NEED)
		return (enum sbx_warm_rc)r->state;
	/* each turn fills the part or takes all that is left; a part of
	 * no bytes (an empty file) is whole at once */
	for (;;) {
		size_t take = part_len(r) - r->have;

		take = take < n - off ? take : n - off;
		if (take > 0)
			memcpy(part_buf(r) + r->have, p + off, take);
		r->have += take;
		off += take;
		if (r->have < part_len(r))
			break;
		if ((r->state = part_done(r)) != SBX_WARM_NEED)
			break;
	}
	*used = off;
	return (enum sbx_warm_rc)r->state;
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
