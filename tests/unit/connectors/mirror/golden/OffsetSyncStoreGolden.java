// Generates offset_sync_store.txt, the golden vectors of offset_sync_store_golden_test.cc, from
// Kafka's own org.apache.kafka.connect.mirror.OffsetSyncStore (the reference MM2 jar). It feeds
// seeded random sync streams to the real class and records the 64 slots and translations.
//
//   CP=$(ls ~/.cache/connectd/kafka-4.3.1-mm2/libs/*.jar | tr '\n' ':')
//   javac -d /tmp/golden -cp "$CP" OffsetSyncStoreGolden.java
//   java -cp "/tmp/golden:$CP" org.apache.kafka.connect.mirror.OffsetSyncStoreGolden \
//       > offset_sync_store.txt
//
// Format, one item per line:
//   scenario <n> <initializationMustReadToEnd 0|1>   a new, empty store
//   sync <partition> <upstream> <downstream>          one offset-syncs record
//   readtoend                                         the initial read-to-end completed
//   state <partition> <count>:<upstream>:<downstream>,...   the 64 slots as runs of one sync
//   translate <partition> <group offset> <result|none>      translateDownstream
package org.apache.kafka.connect.mirror;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.util.OptionalLong;
import java.util.Random;

public class OffsetSyncStoreGolden extends OffsetSyncStore {
    private static final int SCENARIOS = 24;
    private static final int SYNCS = 200;
    private static final TopicPartition[] PARTITIONS = {new TopicPartition("t", 0), new TopicPartition("t", 1)};

    OffsetSyncStoreGolden(boolean mustReadToEnd) {
        super();
        initializationMustReadToEnd = mustReadToEnd;
    }

    @Override
    void backingStoreStart() {
        // syncs are fed by hand
    }

    private void feed(int p, long up, long down) {
        OffsetSync sync = new OffsetSync(PARTITIONS[p], up, down);
        handleRecord(new ConsumerRecord<>("syncs", 0, 0L, sync.recordKey(), sync.recordValue()));
        System.out.println("sync " + p + " " + up + " " + down);
    }

    private void state(int p) {
        StringBuilder line = new StringBuilder("state " + p + " ");
        int run = 0;
        for (int i = 0; i < SYNCS_PER_PARTITION; i++) {
            OffsetSync s = syncFor(PARTITIONS[p], i);
            run++;
            if (i == SYNCS_PER_PARTITION - 1 || syncFor(PARTITIONS[p], i + 1) != s) {
                line.append(run).append(':').append(s.upstreamOffset()).append(':').append(s.downstreamOffset());
                if (i != SYNCS_PER_PARTITION - 1) line.append(',');
                run = 0;
            }
        }
        System.out.println(line);
    }

    private void translate(int p, long g) {
        OptionalLong t = translateDownstream("group", PARTITIONS[p], g);
        System.out.println("translate " + p + " " + g + " " + (t.isPresent() ? Long.toString(t.getAsLong()) : "none"));
    }

    private static long nonNegative(Random random, long bound) {
        return bound <= 0 ? 0 : Math.floorMod(random.nextLong(), bound);
    }

    public static void main(String[] args) {
        Random random = new Random(20261130L);
        for (int scenario = 0; scenario < SCENARIOS; scenario++) {
            boolean mustReadToEnd = scenario % 2 == 0;
            int style = (scenario / 2) % 4;  // 0 small steps, 1 large, 2 near Long.MAX_VALUE, 3 mixed
            OffsetSyncStoreGolden store = new OffsetSyncStoreGolden(mustReadToEnd);
            System.out.println("scenario " + scenario + " " + (mustReadToEnd ? 1 : 0));
            long[] up = new long[2];
            long[] down = new long[2];
            for (int p = 0; p < 2; p++) {
                up[p] = style == 2 ? Long.MAX_VALUE - (1L << 50) + nonNegative(random, 1L << 40) : nonNegative(random, 1000);
                down[p] = nonNegative(random, 1000);
            }
            int initial = random.nextInt(40);
            for (int k = 0; k < initial + SYNCS; k++) {
                if (k == initial) {
                    store.translate(0, up[0]);
                    store.readToEnd = true;
                    System.out.println("readtoend");
                }
                int p = random.nextInt(10) < 7 ? 0 : 1;
                long step;
                switch (style) {
                    case 0: step = random.nextInt(21); break;
                    case 1: step = nonNegative(random, 1L << 40); break;
                    case 2: step = nonNegative(random, 1L << 44); break;
                    default: {
                        int kind = random.nextInt(100);
                        if (kind < 3) {
                            up[p] = nonNegative(random, up[p]);  // upstream rewind
                            step = 0;
                        } else if (kind < 13) {
                            step = 0;  // repeated offset
                        } else if (kind < 16) {
                            down[p] = nonNegative(random, 100);  // downstream reset
                            step = 1;
                        } else {
                            step = 1 + random.nextInt(5000);
                        }
                    }
                }
                up[p] = up[p] > Long.MAX_VALUE - step ? Long.MAX_VALUE : up[p] + step;
                down[p] += 1 + random.nextInt(3);
                store.feed(p, up[p], down[p]);
                if (k >= initial && (k - initial) % 25 == 24) store.state(p);
            }
            for (int p = 0; p < 2; p++) {
                try {
                    store.syncFor(PARTITIONS[p], 0);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                store.state(p);
                for (int i = 0; i < SYNCS_PER_PARTITION; i += 3) {
                    long u = store.syncFor(PARTITIONS[p], i).upstreamOffset();
                    store.translate(p, u);
                    if (u > 0) store.translate(p, u - 1);
                    if (u < Long.MAX_VALUE) store.translate(p, u + 1);
                }
                store.translate(p, 0);
                store.translate(p, Long.MAX_VALUE);
            }
        }
    }
}
