/* ctlmsg.h - the typed messages a service's processes exchange over their
 * SEQPACKET control sockets (OpenBSD's imsg is the model): a 4-byte
 * header, then a payload whose size the type fixes exactly.
 *
 *     type:u16  len:u16  payload[len]        (one message per datagram)
 *
 *   CONN     pre-auth -> supervisor   an authenticated connection: its
 *            fd rides along (SCM_RIGHTS, exactly one), the payload is its
 *            transport state: tx_key[32] tx_n:u64 rx_key[32] rx_n:u64
 *            key:u8 (which of the service's secrets it used, below
 *            SECRET_RING_MAX) version:u8 (the protocol version msg1
 *            authenticated under, 1..VERSION_MAX: common/wire/version.h)
 *            word:u8 (its prologue's word: 0 none, else the service's
 *            word of that number, up to VERSION_WORDS_MAX)
 *   ADMIT    handler -> supervisor    admit my request:
 *            cpu_ms:u64 tenant_len:u8 tenant[64] (zero padded)
 *   VERDICT  supervisor -> handler    code:u16 (0: go ahead, else the
 *            applet's refusal code; SERVICE_VERDICT_QUEUED, 0xffff: the
 *            request waits its turn, the verdict follows)
 *   DONE     handler -> supervisor    my request is over but for its final
 *            frame; stop counting it: cpu_used_ms:u64
 *   READY    pre-auth -> supervisor   confined and serving (no payload);
 *            a sandbox's warm keeper -> supervisor: its slot is prepared
 *
 * A datagram whose length is not exactly 4 + the type's size, an unknown
 * type, a CONN without its one fd or any other message with an fd is
 * refused whole. Integers are big-endian, read with common/base/bounded_rw.h. */
#ifndef AIRLOCK_CTLMSG_H
#define AIRLOCK_CTLMSG_H

#include <stddef.h>
#include <stdint.h>

#include "common/wire/noise.h"
#include "common/wire/proto.h"
#include "common/wire/secret.h"

enum ctlmsg_type {
	CTLMSG_CONN = 1,
	CTLMSG_ADMIT = 2,
	CTLMSG_VERDICT = 3,
	CTLMSG_DONE = 4,
	CTLMSG_READY = 5
};

#define CTLMSG_HEADER_LEN 4
#define CTLMSG_CONN_LEN (2 * (NOISE_KEY_LEN + 8) + 3)
#define CTLMSG_ADMIT_LEN (8 + 1 + PROTO_ID_MAX)
#define CTLMSG_VERDICT_LEN 2
#define CTLMSG_DONE_LEN 8
#define CTLMSG_MAX (CTLMSG_HEADER_LEN + CTLMSG_CONN_LEN)

struct ctlmsg {
	enum ctlmsg_type type;
	uint8_t conn_key;			/* CONN: the secret's index */
	uint8_t conn_version;			/* CONN: the protocol version */
	uint8_t conn_word;			/* CONN: the prologue's word */
	union {
		struct noise_transport conn;	/* ready = 1 when decoded */
		struct {
			uint64_t cpu_ms;
			char tenant[PROTO_ID_MAX + 1];	/* a valid id */
		} admit;
		uint16_t verdict;
		uint64_t done_cpu_ms;
	} u;
};

enum ctlmsg_status {
	CTLMSG_OK = 0,
	CTLMSG_BAD_TYPE,	/* not one of the five */
	CTLMSG_BAD_LENGTH,	/* not exactly the type's size */
	CTLMSG_BAD_FIELD,	/* a tenant that is no id, padding not zero,
				 * a transport key of all zeros */
	CTLMSG_BAD_FD,		/* CONN without its fd, or an fd elsewhere */
	CTLMSG_CLOSED,		/* end of stream: the peer is gone */
	CTLMSG_IO		/* recvmsg/sendmsg failed (errno) */
};

const char *ctlmsg_status_text(enum ctlmsg_status s);

/* Encode m into out (cap bytes); its length, or -1 when it does not fit
 * or a field is invalid (a tenant that is no id). Pure. */
long ctlmsg_encode(uint8_t *out, size_t cap, const struct ctlmsg *m);

/* Decode one datagram (n bytes at p, hostile) into m. Pure: has_fd says
 * whether one fd came with it, and only CONN may carry (and must carry)
 * one. On failure m is wiped. */
enum ctlmsg_status ctlmsg_decode(struct ctlmsg *m, const uint8_t *p,
    size_t n, int has_fd);

/* Send m on the SEQPACKET socket fd, with pass_fd attached when it is not
 * -1 (CONN); flags as for sendmsg (MSG_NOSIGNAL is added: MSG_DONTWAIT
 * for a sender that must never block on its peer). The encoded copy of a
 * CONN is wiped. CTLMSG_OK or CTLMSG_IO/BAD_FIELD. */
enum ctlmsg_status ctlmsg_send(int fd, const struct ctlmsg *m, int pass_fd,
    int flags);

/* Receive one message from fd into m (flags as for recvmsg, e.g.
 * MSG_DONTWAIT). A CONN's fd is stored in *got_fd (CLOEXEC), else *got_fd
 * is -1; any fd that arrives with a refused message is closed here. A
 * datagram larger than CTLMSG_MAX or with truncated ancillary data is
 * BAD_LENGTH / BAD_FD. */
enum ctlmsg_status ctlmsg_recv(int fd, struct ctlmsg *m, int *got_fd,
    int flags);

#endif
