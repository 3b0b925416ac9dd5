package dev.canopy.processes;

import java.util.concurrent.CountDownLatch;

/** The programs the tests' children run. */
final class Programs {

    private Programs() {
    }

    /** Stays until killed (or until its starter goes away). */
    public static final class Stay implements Runnable {
        @Override
        public void run() {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Ends at once with status 7. */
    public static final class ExitSeven implements Runnable {
        @Override
        public void run() {
            System.out.println("exiting with status 7");
            System.exit(7);
        }
    }
}
