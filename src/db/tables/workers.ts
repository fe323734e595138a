// Outbox workers that are running (migration 0063): written by outbox/heartbeat.ts only.

export interface WorkerHeartbeatsTable {
  /** the worker's name: WORKER_NAME, or host name and process id */
  worker: string;
  started_at: string;
  /** the last time its loop went round */
  beat_at: string;
}

export interface WorkerTables {
  worker_heartbeats: WorkerHeartbeatsTable;
}
