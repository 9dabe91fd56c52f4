/**
 * The libc binding shared by sctpj's lower layers: {@link org.sctpj.nativeio.LibC} (the calls),
 * {@link org.sctpj.nativeio.Native} (loading it once, errno, direct memory), {@link
 * org.sctpj.nativeio.Linux} (constants), {@link org.sctpj.nativeio.Layout} (struct layouts and the
 * control-message macros), {@link org.sctpj.nativeio.SockAddr} (sockaddr_in/sockaddr_in6), {@link
 * org.sctpj.nativeio.MmsgArray} (linked mmsghdr arrays) and {@link org.sctpj.nativeio.Poller}
 * (ppoll with an eventfd wakeup). Linux on x86-64 and AArch64 only.
 */
package org.sctpj.nativeio;
