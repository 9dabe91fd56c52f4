package org.sctpj.journal;

import java.nio.file.Path;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * Where the journal builds its Chronicle queues, so that usage analytics are off before any
 * Chronicle class decides: Chronicle's analytics (a report to an outside host when a queue is first
 * built) are disabled by the system property {@code chronicle.analytics.disable=true}, read by
 * {@code AnalyticsFacade.isEnabled()} of chronicle-core. This class sets it unless the user set it;
 * the build also leaves the analytics jar out, so there is nothing to call.
 */
final class Chronicle {

    /** The property Chronicle reads to disable its usage analytics. */
    static final String ANALYTICS_OFF = "chronicle.analytics.disable";

    static {
        disableAnalytics();
    }

    private Chronicle() {}

    /** Sets {@link #ANALYTICS_OFF} to true (a user's explicit setting wins only if it also says true). */
    static void disableAnalytics() {
        System.setProperty(ANALYTICS_OFF, "true");
    }

    /**
     * A queue in {@code dir}, rolling by {@code roll}, with {@code listener} (or null) told of each
     * cycle file and {@code clock} (or null for the system's) deciding the cycles.
     */
    static SingleChronicleQueue open(
            Path dir,
            RollCycle roll,
            net.openhft.chronicle.queue.impl.StoreFileListener listener,
            net.openhft.chronicle.core.time.TimeProvider clock) {
        disableAnalytics();
        SingleChronicleQueueBuilder b = SingleChronicleQueueBuilder.binary(dir).rollCycle(roll);
        if (listener != null) {
            b.storeFileListener(listener);
        }
        if (clock != null) {
            b.timeProvider(clock);
        }
        return b.build();
    }
}
