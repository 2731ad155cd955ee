/* reviewfmt.c - text and JSON renderings for the review applet. */
#include "common/policy/reviewfmt.h"

#include <string.h>
#include <time.h>

#include "common/base/json.h"

void
rfmt_esc(FILE *f, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02x", s[i]);
	}
}

void
rfmt_command(FILE *f, const struct guard_policy *policy,
    const char *const *argv, size_t argc)
{
	char line[RFMT_COMMAND_MAX];
	struct guard_result gr;
	enum guard_verdict v;

	v = guard_normalised(policy, argv, argc, line, sizeof line, &gr);
	if (v == GUARD_OK) {
		fputs(line, f);
		return;
	}
	/* not what a runner would exec: the exact bytes, and why */
	fprintf(f, "(refused by the guard: %s) ", guard_verdict_name(v));
	for (size_t i = 0; i < argc; i++) {
		if (i)
			fputc(' ', f);
		rfmt_esc(f, argv[i], strlen(argv[i]));
	}
}

int
rfmt_token_expiry(const char *token, uint64_t *expires)
{
	static struct approval a;

	if (approval_peek(token, strlen(token), &a) != 0)
		return -1;
	*expires = a.expires_at;
	return 0;
}

void
rfmt_time(uint64_t t, char out[RFMT_TIME_LEN])
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t > (uint64_t)253402300799 || !gmtime_r(&tt, &tm) ||
	    strftime(out, RFMT_TIME_LEN, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, RFMT_TIME_LEN, "@%llu", (unsigned long long)t);
}

/* "label         value" with the value escaped. */
static void
row(FILE *f, const char *label, const void *p, size_t n)
{
	fprintf(f, "%-14s", label);
	rfmt_esc(f, p, n);
	fputc('\n', f);
}

static void
row_c(FILE *f, const char *label, const char *s)
{
	row(f, label, s, strlen(s));
}

static void
row_argv(FILE *f, size_t i, const void *p, size_t n)
{
	char label[24];

	snprintf(label, sizeof label, "argv[%zu]", i);
	row(f, label, p, n);
}

static void
token_id_text(const char *token, char out[APPROVAL_ID_TEXT])
{
	uint8_t id[APPROVAL_ID_LEN];

	if (approval_token_id(token, strlen(token), id) != 0 ||
	    b64url_encode(id, sizeof id, out, APPROVAL_ID_TEXT) < 0)
		snprintf(out, APPROVAL_ID_TEXT, "?");
}

void
rfmt_record(FILE *f, const struct store_rec *rec,
    const struct guard_policy *policy)
{
	char when[RFMT_TIME_LEN], tid[APPROVAL_ID_TEXT];
	uint64_t expires;

	row_c(f, "id", rec->id);
	row_c(f, "tenant", rec->tenant);
	row_c(f, "registration", rec->registration);
	row_c(f, "source", store_source_name(rec->source));
	row_c(f, "status", store_status_name(rec->status));
	fprintf(f, "%-14s", "command");
	rfmt_command(f, policy, rec->argv, rec->argc);
	fputc('\n', f);
	for (size_t i = 0; i < rec->argc; i++)
		row_argv(f, i, rec->argv[i], strlen(rec->argv[i]));
	for (size_t i = 0; i < rec->envc; i++)
		row_c(f, "env key", rec->env[i]);
	if (rec->egress && rec->egress[0])
		row_c(f, "egress", rec->egress);
	if (rec->tools && rec->tools[0])
		row_c(f, "tools", rec->tools);
	if (rec->surface && rec->surface[0])
		row_c(f, "surface", rec->surface);
	if (rec->token[0]) {
		token_id_text(rec->token, tid);
		row_c(f, "token id", tid);
		if (rfmt_token_expiry(rec->token, &expires) == 0) {
			rfmt_time(expires, when);
			fprintf(f, "%-14s%s (%llu)\n", "expires", when,
			    (unsigned long long)expires);
		}
		row_c(f, "token", rec->token);
	}
	fprintf(f, "history\n");
	for (size_t i = 0; i < rec->nevents; i++) {
		const struct store_event *ev = &rec->events[i];

		rfmt_time(ev->time, when);
		fprintf(f, "  %s  %-8s %-8s %s", when, ev->action,
		    store_status_name(ev->status), ev->actor);
		if (ev->note[0]) {
			fputs("  ", f);
			rfmt_esc(f, ev->note, strlen(ev->note));
		}
		fputc('\n', f);
	}
}

void
rfmt_record_json_members(FILE *f, const struct store_rec *rec)
{
	char tid[APPROVAL_ID_TEXT];
	uint64_t expires;

	fputs("{\"id\":", f);
	json_write_cstr(f, rec->id);
	fputs(",\"tenant\":", f);
	json_write_cstr(f, rec->tenant);
	fputs(",\"registration\":", f);
	json_write_cstr(f, rec->registration);
	fprintf(f, ",\"source\":\"%s\",\"status\":\"%s\",\"argv\":[",
	    store_source_name(rec->source), store_status_name(rec->status));
	for (size_t i = 0; i < rec->argc; i++) {
		fputs(i ? "," : "", f);
		json_write_cstr(f, rec->argv[i]);
	}
	fputs("],\"env_keys\":[", f);
	for (size_t i = 0; i < rec->envc; i++) {
		fputs(i ? "," : "", f);
		json_write_cstr(f, rec->env[i]);
	}
	fputs("]", f);
	if (rec->egress && rec->egress[0]) {	/* only when there are any */
		fputs(",\"egress\":", f);
		json_write_cstr(f, rec->egress);
	}
	if (rec->lock && rec->lock[0])	/* hex, as stored (checked) */
		fprintf(f, ",\"lock\":\"%s\",\"lock_scripts\":%s", rec->lock,
		    rec->lock_scripts ? "true" : "false");
	if (rec->tools && rec->tools[0]) {
		fputs(",\"tools\":", f);
		json_write_cstr(f, rec->tools);
	}
	if (rec->surface && rec->surface[0])	/* hex, as stored (checked) */
		fprintf(f, ",\"surface\":\"%s\"", rec->surface);
	if (rec->token[0]) {
		token_id_text(rec->token, tid);
		fprintf(f, ",\"token_id\":\"%s\"", tid);
		if (rfmt_token_expiry(rec->token, &expires) == 0)
			fprintf(f, ",\"expires_at\":%llu",
			    (unsigned long long)expires);
		fputs(",\"token\":", f);
		json_write_cstr(f, rec->token);
	}
	fputs(",\"history\":[", f);
	for (size_t i = 0; i < rec->nevents; i++) {
		const struct store_event *ev = &rec->events[i];

		fprintf(f, "%s{\"time\":%llu,\"actor\":", i ? "," : "",
		    (unsigned long long)ev->time);
		json_write_cstr(f, ev->actor);
		fprintf(f, ",\"action\":\"%s\",\"status\":\"%s\",\"note\":",
		    ev->action, store_status_name(ev->status));
		json_write_cstr(f, ev->note);
		fputc('}', f);
	}
	fputc(']', f);
}

void
rfmt_record_json(FILE *f, const struct store_rec *rec)
{
	rfmt_record_json_members(f, rec);
	fputc('}', f);
}

void
rfmt_list_header(FILE *f)
{
	fprintf(f, "%-8s %-12s %-8s %-12s %-12s %-20s %s\n", "ID", "STATUS",
	    "SOURCE", "TENANT", "REGISTRATION", "EXPIRES", "COMMAND");
}

void
rfmt_list_line(FILE *f, const struct store_rec *rec,
    const struct guard_policy *policy)
{
	char when[RFMT_TIME_LEN] = "-";
	uint64_t expires;

	if (rec->token[0] && rfmt_token_expiry(rec->token, &expires) == 0)
		rfmt_time(expires, when);
	fprintf(f, "%-8s %-12s %-8s ", rec->id, store_status_name(rec->status),
	    store_source_name(rec->source));
	/* ids are [A-Za-z0-9._-] or "*": nothing to escape */
	fprintf(f, "%-12s %-12s %-20s ", rec->tenant, rec->registration, when);
	rfmt_command(f, policy, rec->argv, rec->argc);
	fputc('\n', f);
}

void
rfmt_approval(FILE *f, const struct approval *a)
{
	char text[ECKEY_ID_TEXT], when[RFMT_TIME_LEN];

	eckey_id_text(a->token_id, text);
	row_c(f, "token id", text);
	eckey_id_text(a->key_id, text);
	row_c(f, "key id", text);
	row(f, "tenant", a->tenant.p, a->tenant.n);
	row(f, "registration", a->registration.p, a->registration.n);
	for (size_t i = 0; i < a->argc; i++)
		row_argv(f, i, a->argv[i].p, a->argv[i].n);
	for (size_t i = 0; i < a->envc; i++)
		row(f, "env key", a->env[i].p, a->env[i].n);
	if (a->egress.n)
		row(f, "egress", a->egress.p, a->egress.n);
	if (a->has_lock) {
		char hex[2 * APPROVAL_LOCK_LEN + 1];

		for (size_t i = 0; i < APPROVAL_LOCK_LEN; i++)
			snprintf(hex + 2 * i, 3, "%02x", a->lock[i]);
		fprintf(f, "%-14s%s (install scripts %s)\n", "lock", hex,
		    a->lock_flags & APPROVAL_LOCK_SCRIPTS ? "allowed" : "off");
	}
	if (a->tools.n)
		row(f, "tools", a->tools.p, a->tools.n);
	if (a->has_surface) {
		char hex[2 * APPROVAL_SURFACE_LEN + 1];

		for (size_t i = 0; i < APPROVAL_SURFACE_LEN; i++)
			snprintf(hex + 2 * i, 3, "%02x", a->surface[i]);
		row_c(f, "surface", hex);
	}
	rfmt_time(a->issued_at, when);
	fprintf(f, "%-14s%s (%llu)\n", "issued", when,
	    (unsigned long long)a->issued_at);
	rfmt_time(a->expires_at, when);
	fprintf(f, "%-14s%s (%llu)\n", "expires", when,
	    (unsigned long long)a->expires_at);
}

void
rfmt_audit_entry(FILE *f, const struct audit_view *v)
{
	char when[RFMT_TIME_LEN];

	rfmt_time(v->time, when);
	fprintf(f, "%llu %s ", (unsigned long long)v->seq, when);
	rfmt_esc(f, v->actor.p, v->actor.n);
	fputc(' ', f);
	rfmt_esc(f, v->action.p, v->action.n);
	fputc(' ', f);
	rfmt_esc(f, v->record.p, v->record.n);
	fputc(' ', f);
	rfmt_esc(f, v->status.p, v->status.n);
	if (v->detail.n) {
		fputc(' ', f);
		rfmt_esc(f, v->detail.p, v->detail.n);
	}
	fputc('\n', f);
}
