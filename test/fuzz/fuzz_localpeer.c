/* fuzz_localpeer.c - a NETLINK_SOCK_DIAG reply datagram under arbitrary
 * bytes (the kernel writes it, but it is parsed as untrusted-shaped).
 * The seq asked about is the datagram's own, so the parser goes past the
 * header. Invariants: FOUND only for a whole header and inet_diag_msg
 * within the input, a parse never reads past the input. */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <string.h>

#include "common/service/localpeer.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct localpeer_end peer, us;
	uint32_t seq = 0;
	uid_t uid;

	memset(&peer, 0, sizeof peer);
	memset(&us, 0, sizeof us);
	peer.addr[10] = peer.addr[11] = us.addr[10] = us.addr[11] = 0xff;
	peer.addr[12] = us.addr[12] = 127;
	peer.addr[15] = 2;
	us.addr[15] = 1;
	peer.port = 0x409c;
	us.port = 0x581b;
	if (size >= sizeof(struct nlmsghdr))
		memcpy(&seq, data + offsetof(struct nlmsghdr, nlmsg_seq),
		    sizeof seq);
	if (localpeer_reply_parse(data, size, seq, &peer, &us, &uid) ==
	    LOCALPEER_REPLY_FOUND)
		FUZZ_ASSERT(size >= sizeof(struct nlmsghdr) +
		    sizeof(struct inet_diag_msg));
	return 0;
}
