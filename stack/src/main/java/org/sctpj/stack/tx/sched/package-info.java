/**
 * The stream schedulers of RFC 8260 section 3: which outgoing stream's queued message gives the
 * next chunk of new data. {@link org.sctpj.stack.tx.sched.StreamScheduler} is the interface the
 * send queue delegates its turn order to; {@link
 * org.sctpj.stack.tx.sched.StreamScheduler#create} makes one of the six of the usrsctp set, named
 * by the exported {@link org.sctpj.stack.StreamSchedulerKind}:
 *
 * <ul>
 *   <li>{@code FirstComeFirstServedScheduler} (3.1): messages in the order the user queued them;
 *   <li>{@code RoundRobinScheduler} (3.2, the default): one message (with interleaving one chunk)
 *       per stream per turn;
 *   <li>{@code RoundRobinPerPacketScheduler} (3.3): one stream per packet;
 *   <li>{@code PriorityScheduler} (3.4): lowest priority value first, round robin among equals;
 *   <li>{@code FairCapacityScheduler} (3.5): the stream that sent the fewest bytes first;
 *   <li>{@code WeightedFairQueueingScheduler} (3.6): earliest virtual finish time, bytes divided by
 *       the stream's weight.
 * </ul>
 *
 * <p>The send queue keeps the messages and holds a stream's turn while its message is partly sent
 * without interleaving (DATA, RFC 9260 section 6.9); the schedulers keep only the order, by stream
 * id, in arrays: nothing is allocated per message or chunk. Internal to the stack; sans-IO.
 */
package org.sctpj.stack.tx.sched;
