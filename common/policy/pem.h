/* pem.h - exactly one PEM object (RFC 7468) in, its DER bytes out, and
 * back. Built on BearSSL's PEM codec; this layer adds the policy: one
 * object, the expected label, a size cap, nothing truncated. */
#ifndef AIRLOCK_PEM_H
#define AIRLOCK_PEM_H

#include <stddef.h>
#include <stdint.h>

enum pem_status {
	PEM_OK = 0,
	PEM_NONE,	/* no complete object */
	PEM_LABEL,	/* an object with another label */
	PEM_SYNTAX,	/* bad base64 or a broken BEGIN/END */
	PEM_MULTIPLE,	/* more than one object */
	PEM_TOO_BIG	/* decoded object over cap */
};

const char *pem_status_text(enum pem_status s);

/* Decode the one object labelled label ("PUBLIC KEY") in text[0..len)
 * into der (cap bytes); *der_len gets its length on PEM_OK. text is
 * untrusted and need not be NUL-terminated. */
enum pem_status pem_decode(const char *text, size_t len, const char *label,
    uint8_t *der, size_t cap, size_t *der_len);

/* Encode der as PEM with 64-column lines into out (cap bytes, NUL added);
 * returns the length without the NUL, or -1 if out is too small. */
long pem_encode(const uint8_t *der, size_t len, const char *label,
    char *out, size_t cap);

#endif
