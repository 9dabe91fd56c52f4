/* Prints, as NAME=value lines, what the C compiler and the C library's headers say about every
 * constant, struct size and field offset of org.sctpj.nativeio.Linux and Layout. NAME is the Java
 * constant's name; LayoutTest compiles this with gcc and compares. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <linux/filter.h>
#include <linux/udp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

#define V(name, value) printf("%s=%ld\n", name, (long) (value))
#define C(x) V(#x, x)

int main(void) {
    /* Linux */
    C(AF_INET); C(AF_INET6); C(SOCK_DGRAM); C(SOCK_RAW); C(SOCK_NONBLOCK); C(SOCK_CLOEXEC);
    C(IPPROTO_IP); C(IPPROTO_IPV6); C(IPPROTO_SCTP); C(SOL_SOCKET); V("SOL_UDP", IPPROTO_UDP);
    C(SO_SNDBUF); C(SO_RCVBUF); C(SO_RCVBUFFORCE); C(SO_RXQ_OVFL); C(IP_RECVERR); C(IPV6_RECVERR);
    C(MSG_ERRQUEUE); C(SO_EE_ORIGIN_ICMP); C(SO_EE_ORIGIN_ICMP6); C(POLLERR);
    C(IP_PKTINFO); C(IPV6_V6ONLY); C(IPV6_RECVPKTINFO); C(IPV6_PKTINFO);
    C(IP_TOS); C(IP_RECVTOS); C(IP_MTU_DISCOVER); C(IP_PMTUDISC_DONT); C(IP_PMTUDISC_DO); C(IP_PMTUDISC_PROBE); C(IP_MTU);
    C(IPV6_TCLASS); C(IPV6_RECVTCLASS); C(IPV6_MTU_DISCOVER); C(IPV6_PMTUDISC_PROBE);
    C(UDP_SEGMENT); C(UDP_GRO); C(EFD_NONBLOCK); C(EFD_CLOEXEC); C(O_RDONLY); C(O_CLOEXEC);
    C(CLONE_NEWNET); C(POLLIN); C(MSG_CTRUNC); C(MSG_TRUNC); C(MSG_DONTWAIT);
    C(EPERM); C(EINTR); C(EIO); C(EAGAIN); C(EACCES); C(EINVAL); C(EMSGSIZE); C(EPROTONOSUPPORT);
    C(EAFNOSUPPORT); C(EADDRINUSE); C(EADDRNOTAVAIL); C(ENOBUFS); C(ECONNREFUSED);
    C(SO_ATTACH_FILTER); C(SO_DETACH_FILTER); C(SKF_NET_OFF);
    V("BPF_LD_W_ABS", BPF_LD | BPF_W | BPF_ABS); V("BPF_JEQ_K", BPF_JMP | BPF_JEQ | BPF_K); V("BPF_RET_K", BPF_RET | BPF_K);
    C(ENONET); C(ENOPROTOOPT); C(EOPNOTSUPP); C(ENETUNREACH); C(EHOSTDOWN); C(EHOSTUNREACH); C(EPROTO);
    /* Layout */
    V("MSGHDR_SIZE", sizeof(struct msghdr));
    V("MSG_NAME", offsetof(struct msghdr, msg_name));
    V("MSG_NAMELEN", offsetof(struct msghdr, msg_namelen));
    V("MSG_IOV", offsetof(struct msghdr, msg_iov));
    V("MSG_IOVLEN", offsetof(struct msghdr, msg_iovlen));
    V("MSG_CONTROL", offsetof(struct msghdr, msg_control));
    V("MSG_CONTROLLEN", offsetof(struct msghdr, msg_controllen));
    V("MSG_FLAGS", offsetof(struct msghdr, msg_flags));
    V("MMSGHDR_SIZE", sizeof(struct mmsghdr));
    V("MMSG_LEN", offsetof(struct mmsghdr, msg_len));
    V("IOVEC_SIZE", sizeof(struct iovec));
    V("IOV_BASE", offsetof(struct iovec, iov_base));
    V("IOV_LEN", offsetof(struct iovec, iov_len));
    V("CMSG_HEADER", CMSG_LEN(0));
    V("CMSG_LEN_FIELD", offsetof(struct cmsghdr, cmsg_len));
    V("CMSG_LEVEL", offsetof(struct cmsghdr, cmsg_level));
    V("CMSG_TYPE", offsetof(struct cmsghdr, cmsg_type));
    V("IN_PKTINFO_SIZE", sizeof(struct in_pktinfo));
    V("IPI_IFINDEX", offsetof(struct in_pktinfo, ipi_ifindex));
    V("IPI_SPEC_DST", offsetof(struct in_pktinfo, ipi_spec_dst));
    V("IPI_ADDR", offsetof(struct in_pktinfo, ipi_addr));
    V("IN6_PKTINFO_SIZE", sizeof(struct in6_pktinfo));
    V("IPI6_ADDR", offsetof(struct in6_pktinfo, ipi6_addr));
    V("IPI6_IFINDEX", offsetof(struct in6_pktinfo, ipi6_ifindex));
    V("SOCKADDR_IN_SIZE", sizeof(struct sockaddr_in));
    V("SOCKADDR_IN6_SIZE", sizeof(struct sockaddr_in6));
    V("SA_FAMILY", offsetof(struct sockaddr_in, sin_family));
    V("SA_PORT", offsetof(struct sockaddr_in, sin_port));
    V("SA_FAMILY", offsetof(struct sockaddr_in6, sin6_family));
    V("SA_PORT", offsetof(struct sockaddr_in6, sin6_port));
    V("SIN_ADDR", offsetof(struct sockaddr_in, sin_addr));
    V("SIN6_FLOWINFO", offsetof(struct sockaddr_in6, sin6_flowinfo));
    V("SIN6_ADDR", offsetof(struct sockaddr_in6, sin6_addr));
    V("SIN6_SCOPE_ID", offsetof(struct sockaddr_in6, sin6_scope_id));
    V("POLLFD_SIZE", sizeof(struct pollfd));
    V("POLL_FD", offsetof(struct pollfd, fd));
    V("POLL_EVENTS", offsetof(struct pollfd, events));
    V("POLL_REVENTS", offsetof(struct pollfd, revents));
    V("TIMESPEC_SIZE", sizeof(struct timespec));
    V("EXTENDED_ERR_SIZE", sizeof(struct sock_extended_err));
    V("EE_ERRNO", offsetof(struct sock_extended_err, ee_errno));
    V("EE_ORIGIN", offsetof(struct sock_extended_err, ee_origin));
    V("EE_TYPE", offsetof(struct sock_extended_err, ee_type));
    V("EE_CODE", offsetof(struct sock_extended_err, ee_code));
    V("EE_INFO", offsetof(struct sock_extended_err, ee_info));
    V("SOCK_FILTER_SIZE", sizeof(struct sock_filter));
    V("FILTER_CODE", offsetof(struct sock_filter, code));
    V("FILTER_JT", offsetof(struct sock_filter, jt));
    V("FILTER_JF", offsetof(struct sock_filter, jf));
    V("FILTER_K", offsetof(struct sock_filter, k));
    V("SOCK_FPROG_SIZE", sizeof(struct sock_fprog));
    V("FPROG_LEN", offsetof(struct sock_fprog, len));
    V("FPROG_FILTER", offsetof(struct sock_fprog, filter));
    V("TV_SEC", offsetof(struct timespec, tv_sec));
    V("TV_NSEC", offsetof(struct timespec, tv_nsec));
    /* the macros, at the data lengths the lower layers use */
    V("cmsgSpace(2)", CMSG_SPACE(2));
    V("cmsgSpace(4)", CMSG_SPACE(4));
    V("cmsgSpace(12)", CMSG_SPACE(12));
    V("cmsgSpace(20)", CMSG_SPACE(20));
    V("cmsgLen(2)", CMSG_LEN(2));
    V("cmsgLen(20)", CMSG_LEN(20));
    return 0;
}
