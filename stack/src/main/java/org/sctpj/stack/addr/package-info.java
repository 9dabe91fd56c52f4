/**
 * Address selection for multi-homed hosts in multi-domain clusters (private IPv4, public IPv4
 * and IPv6 side by side), as pure logic: the host's interfaces come in as data ({@link
 * org.sctpj.stack.addr.LocalInterface}), nothing here does I/O or looks anything up.
 *
 * <p>{@link org.sctpj.stack.addr.AddressSelector} is the pluggable interface; {@link
 * org.sctpj.stack.addr.DefaultAddressSelector} applies the rules below, {@link
 * org.sctpj.stack.addr.ExplicitAddressSelector} uses lists the user gives instead. {@link
 * org.sctpj.stack.addr.AddressPolicy} bundles a selector with the host's interfaces and the
 * private-address collision information ({@link org.sctpj.stack.addr.CollisionInfo}; INIT
 * collisions are another matter, in {@code handshake}); {@code Endpoint.setAddressPolicy} makes the
 * endpoint use it for what INIT / INIT ACK announce, which peer addresses an association uses (primary first), the source
 * address per path and the CMT path set.
 *
 * <h2>Rules and their sources</h2>
 *
 * The rules come from the project's SEEDS section 5 (the Jena theses on SCTP in coupled
 * clusters and the HP RSIP paper); the address classes from the IANA special-purpose registries
 * (RFC 6890) with RFC 1918, RFC 6598, RFC 3927, RFC 4193 and RFC 4291.
 *
 * <ol>
 *   <li><b>Classes</b> ({@link org.sctpj.stack.addr.AddressClass}): loopback and link-local are
 *       skipped unless the peer is on this host (loopback) or on-link (link-local); IPv6 global
 *       (2000::/3) and ULA (fc00::/7) are usable; IPv4-mapped IPv6 addresses are never used.
 *   <li><b>Announce</b>: every usable local address, in the host's order.
 *   <li><b>Reachability</b>: a peer address is used only if this host has an address of the same
 *       class and family: IPv6 global and public IPv4 need a local address of that class (a host
 *       with only private addresses never tries public IPv4: no NAT can be assumed), private
 *       IPv4 and ULA need a local private address of that family.
 *   <li><b>Trust</b> ({@link org.sctpj.stack.addr.CollisionInfo}): private addresses are trusted
 *       only when no two hosts publish the same one; only then does "same prefix" mean "same
 *       network". A peer address that is one of this host's own addresses is never used unless
 *       the peer is on this host.
 *   <li><b>Ranking</b>: by {@link org.sctpj.stack.addr.PathWeight}, so IPv6 global and public
 *       IPv4 come first and private addresses last; the peer's order among equals.
 *   <li><b>Pairing</b>: local and peer interfaces are the two sides of a weighted bipartite
 *       graph (weights: none 0 &lt; private other-network &lt; private same-network &lt; public
 *       other-network &lt; public same-network); the chosen paths are the matching with the
 *       most pairs, ties broken by total weight, never two paths on one local or one peer
 *       interface. The first pair is the primary path, all of them the CMT path set.
 *   <li><b>NAT</b> (RSIP): addresses carried inside messages can be wrong behind NAT; the source
 *       address of the packet is the one to trust. Selectors therefore expect the source (or the
 *       address connected to) as the first peer address, and use it to judge where the peer is.
 * </ol>
 */
package org.sctpj.stack.addr;
