import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { BatchRecord } from "../jobs/render-batch.js";
import type { JobRecord } from "../jobs/render-job.js";
import type { DeliveryJournal, DeliveryRecord } from "../webhooks/webhook-sender.js";

/** The state store cannot be opened: in use by another server, unreadable, or not a store. */
export class StateStoreError extends Error {
  override name = "StateStoreError";
}

/** How long an Idempotency-Key is honoured. */
export const IDEMPOTENCY_KEY_MS = 24 * 60 * 60 * 1000;

/** Records of requests and batches that ended longer ago than this are dropped when the server starts. */
export const ENDED_RECORDS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** What a key was first used for: the route and body it came with, and the answer it got (null while it is being accepted). */
export interface IdempotencyEntry {
  fingerprint: string;
  answer: string | null;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS requests (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, ended_at INTEGER, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS batches (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, ended_at INTEGER, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, done INTEGER NOT NULL, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS idempotency_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, answer TEXT, created_at INTEGER NOT NULL);
`;

const endedAt = (finishedAt: string | null) => (finishedAt === null ? null : Date.parse(finishedAt));

/**
 * The server's requests, batches, webhook deliveries and idempotency keys, in one SQLite file
 * that survives the process (kill -9, a crash, a reboot): every change is a transaction, synced
 * to disk before it returns. The file is locked for as long as the server runs, so a second
 * server on the same store is refused at once; the lock is the operating system's, so it goes
 * with the process that held it, however it ended.
 */
export class StateStore implements DeliveryJournal {
  private constructor(private readonly db: Database.Database) {}

  static open(path: string): StateStore {
    let db: Database.Database | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true });
      db = new Database(path, { timeout: 0 });
      // Exclusive before WAL: no shared-memory index, and the lock is held from the first write on.
      db.pragma("locking_mode = EXCLUSIVE");
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      db.exec("BEGIN EXCLUSIVE; COMMIT;");
      db.exec(SCHEMA);
      const store = new StateStore(db);
      store.dropOldRecords(Date.now());
      return store;
    } catch (error) {
      db?.close();
      const code = (error as { code?: string }).code ?? "";
      if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
        throw new StateStoreError(`the state store ${path} is in use by another compose serve; stop that server, or give this one its own --state`);
      }
      throw new StateStoreError(`cannot open the state store ${path}: ${(error as Error).message}; give --state a file this process may create and write`);
    }
  }

  close(): void {
    this.db.close();
  }

  /** A value the server keeps across restarts (its outputs mark), made by `make` the first time. */
  meta(key: string, make: () => string): string {
    const found = this.db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?").get(key);
    if (found) return found.value;
    const value = make();
    this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(key, value);
    return value;
  }

  /** Saves the records in one transaction: a batch's thousands of rows are one write to the disk, not one each. */
  saveRequests(records: readonly JobRecord[]): void {
    const upsert = this.db.prepare(
      "INSERT INTO requests (id, ended_at, record) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET ended_at = excluded.ended_at, record = excluded.record",
    );
    this.db.transaction(() => {
      for (const record of records) upsert.run(record.id, endedAt(record.finishedAt), JSON.stringify(record));
    })();
  }

  request(id: string): JobRecord | undefined {
    const row = this.db.prepare<[string], { record: string }>("SELECT record FROM requests WHERE id = ?").get(id);
    return row && (JSON.parse(row.record) as JobRecord);
  }

  /** Requests that had not ended, in the order they were accepted. */
  unfinishedRequests(): JobRecord[] {
    return this.db
      .prepare<[], { record: string }>("SELECT record FROM requests WHERE ended_at IS NULL ORDER BY seq")
      .all()
      .map((row) => JSON.parse(row.record) as JobRecord);
  }

  saveBatch(record: BatchRecord): void {
    this.db
      .prepare(
        "INSERT INTO batches (id, ended_at, record) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET ended_at = excluded.ended_at, record = excluded.record",
      )
      .run(record.id, endedAt(record.finishedAt), JSON.stringify(record));
  }

  batch(id: string): BatchRecord | undefined {
    const row = this.db.prepare<[string], { record: string }>("SELECT record FROM batches WHERE id = ?").get(id);
    return row && (JSON.parse(row.record) as BatchRecord);
  }

  unfinishedBatches(): BatchRecord[] {
    return this.db
      .prepare<[], { record: string }>("SELECT record FROM batches WHERE ended_at IS NULL ORDER BY seq")
      .all()
      .map((row) => JSON.parse(row.record) as BatchRecord);
  }

  save(record: DeliveryRecord): void {
    this.db
      .prepare("INSERT INTO deliveries (id, done, record) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET done = excluded.done, record = excluded.record")
      .run(record.id, record.done ? 1 : 0, JSON.stringify(record));
  }

  delivery(id: string): DeliveryRecord | undefined {
    const row = this.db.prepare<[string], { record: string }>("SELECT record FROM deliveries WHERE id = ?").get(id);
    return row && (JSON.parse(row.record) as DeliveryRecord);
  }

  /** Deliveries whose body was being sent when the server stopped, by id. */
  pendingDeliveries(): string[] {
    return this.db
      .prepare<[], { id: string }>("SELECT id FROM deliveries WHERE done = 0 AND json_extract(record, '$.body') IS NOT NULL")
      .all()
      .map((row) => row.id);
  }

  /**
   * Takes `key` for a request with this fingerprint, unless it was taken within the last day:
   * then returns what it was taken for.
   */
  claimIdempotencyKey(key: string, fingerprint: string, now = Date.now()): IdempotencyEntry | undefined {
    return this.db.transaction(() => {
      this.db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?").run(now - IDEMPOTENCY_KEY_MS);
      const found = this.db.prepare<[string], IdempotencyEntry>("SELECT fingerprint, answer FROM idempotency_keys WHERE key = ?").get(key);
      if (found) return found;
      this.db.prepare("INSERT INTO idempotency_keys (key, fingerprint, answer, created_at) VALUES (?, ?, NULL, ?)").run(key, fingerprint, now);
      return undefined;
    })();
  }

  /** The answer a claimed key gives from now on. */
  answerIdempotencyKey(key: string, answer: string): void {
    this.db.prepare("UPDATE idempotency_keys SET answer = ? WHERE key = ?").run(answer, key);
  }

  /** Lets a claimed key go: its request was refused, so a retry may use it. */
  releaseIdempotencyKey(key: string): void {
    this.db.prepare("DELETE FROM idempotency_keys WHERE key = ? AND answer IS NULL").run(key);
  }

  private dropOldRecords(now: number): void {
    const before = now - ENDED_RECORDS_KEPT_MS;
    this.db.prepare("DELETE FROM requests WHERE ended_at < ?").run(before);
    this.db.prepare("DELETE FROM batches WHERE ended_at < ?").run(before);
    // A delivery no request or batch names was made for a request that was refused (or never saved).
    this.db
      .prepare(
        `DELETE FROM deliveries WHERE id NOT IN (
        SELECT json_extract(record, '$.webhookId') AS id FROM requests WHERE id IS NOT NULL
        UNION SELECT json_extract(record, '$.webhookId') AS id FROM batches WHERE id IS NOT NULL)`,
      )
      .run();
    // Keys claimed by a request the process never answered (killed meanwhile) are let go.
    this.db.prepare("DELETE FROM idempotency_keys WHERE answer IS NULL").run();
  }
}
