import type { CompositionPage } from "../page/composition-page.js";
import type { FrameImageSettings } from "../page/frame-capturer.js";
import type { FrameResult } from "../common/frame-result.js";
import { RenderError } from "../common/render-error.js";

/** What SharedFrames may hold at most, images together: past it, frames are captured and not kept. */
const SHARED_FRAMES_MAX_BYTES = 256 * 1024 * 1024;

/** A frame an earlier row captured: what its page painted (its fingerprint's digest) and the image. */
interface Kept {
  digest: string;
  image: Buffer;
  /** The rows still rendering that have passed this frame. */
  passed: Set<RowFrames>;
}

/**
 * The frames of a batch's rows that paint the same in every row (an intro before the row's text
 * shows, an outro), captured once: a row whose page paints frame n as an earlier row's did
 * (page/paint-fingerprint.ts) takes that row's image instead of capturing it. Each row still
 * encodes its own stream from the same images a render of it alone would take.
 *
 * Memory stays bounded: a frame is kept only while every row so far painted it alike (the first
 * row that paints it otherwise drops it, and no row keeps it again), it is dropped once every row
 * of the batch has passed it or ended, and the images kept together never pass `maxBytes`.
 */
export class SharedFrames {
  /** Frame number to its kept image, or `false` once a row painted it otherwise or could not tell. */
  readonly #frames = new Map<number, Kept | false>();
  readonly #rendering = new Set<RowFrames>();
  #bytes = 0;
  #rows: number;
  /** Rows that ended, or will not render: no frame waits for them. */
  #gone = 0;

  /**
   * @param rows the rows that will render: a frame is dropped once they all passed it.
   * @param options.verify capture the frames taken from an earlier row too, and fail the row when
   *   the images differ: a check of the fingerprint, for tests.
   */
  constructor(
    rows: number,
    readonly options: { verify?: boolean; maxBytes?: number } = {},
  ) {
    this.#rows = rows;
  }

  /** The images held now, in bytes. */
  get heldBytes(): number {
    return this.#bytes;
  }

  /** One row's view, for its render's capture; ended when the row's render ends, however it ends. */
  row(): RowFrames {
    const row = new RowFrames(this);
    this.#rendering.add(row);
    return row;
  }

  /** A row that will not render after all (skipped, refused): frames no longer wait for it. */
  forgoRow(): void {
    this.#gone++;
    this.#dropPassed();
  }

  /** @internal What frame `frame` holds for a row to compare with: undefined when no row kept it, false when it cannot be shared. */
  kept(frame: number): Kept | false | undefined {
    return this.#frames.get(frame);
  }

  /** @internal Keeps the image a row captured of a frame no row kept yet, within the bound. */
  keep(frame: number, digest: string, image: Buffer): void {
    if (this.#frames.has(frame) || this.#bytes + image.length > (this.options.maxBytes ?? SHARED_FRAMES_MAX_BYTES)) return;
    const passed = new Set([...this.#rendering].filter((row) => row.hasPassed(frame)));
    this.#frames.set(frame, { digest, image, passed });
    this.#bytes += image.length;
  }

  /** @internal A frame that one row painted otherwise, or whose page could not tell: no row takes it from another. */
  unshare(frame: number): void {
    const kept = this.#frames.get(frame);
    if (kept) this.#bytes -= kept.image.length;
    this.#frames.set(frame, false);
  }

  /** @internal `row` has passed `frame`. */
  pass(row: RowFrames, frame: number): void {
    const kept = this.#frames.get(frame);
    if (!kept) return;
    kept.passed.add(row);
    if (this.#allPassed(kept)) this.#drop(frame, kept);
  }

  /** @internal `row`'s render has ended: no frame waits for it. */
  end(row: RowFrames): void {
    this.#rendering.delete(row);
    this.#gone++;
    for (const kept of this.#frames.values()) if (kept) kept.passed.delete(row);
    this.#dropPassed();
  }

  #allPassed(kept: Kept): boolean {
    return kept.passed.size + this.#gone >= this.#rows;
  }

  #dropPassed(): void {
    for (const [frame, kept] of this.#frames) if (kept && this.#allPassed(kept)) this.#drop(frame, kept);
  }

  #drop(frame: number, kept: Kept): void {
    this.#bytes -= kept.image.length;
    // No row asks for it again, so the mark that it was shared goes too.
    this.#frames.delete(frame);
  }
}

/** A row's frames in a batch's SharedFrames: what its workers' pages take and pass. */
export class RowFrames {
  readonly #shared: SharedFrames;
  readonly #passed = new Set<number>();
  /** Pages whose last frame was another row's image: their own next capture must be a whole image. */
  readonly #behind = new WeakSet<CompositionPage>();

  constructor(shared: SharedFrames) {
    this.#shared = shared;
  }

  /**
   * Frame `frame`, the page seeked to it and changed: an earlier row's image of it when the page
   * paints it alike, else captured here (and kept for the rows after when every row so far painted
   * it alike). A frame whose paint the fingerprint cannot see is captured.
   */
  async take(page: CompositionPage, frame: number, settings: FrameImageSettings): Promise<FrameResult> {
    const kept = this.#shared.kept(frame);
    if (kept === false) return this.#capture(page, settings);
    const started = performance.now();
    const fingerprint = await page.fingerprint();
    page.stats.fingerprintMs += performance.now() - started;
    if ("off" in fingerprint || (kept && kept.digest !== fingerprint.digest)) {
      this.#shared.unshare(frame);
      return this.#capture(page, settings);
    }
    if (kept) {
      if (this.#shared.options.verify) await this.#verify(page, frame, settings, kept.image);
      page.stats.shared++;
      this.#behind.add(page);
      return { kind: "image", data: kept.image };
    }
    // Kept, it is the image the rows after take: a whole image, not a repeat of this page's last.
    const image = await page.captureImage(settings);
    this.#behind.delete(page);
    this.#shared.keep(frame, fingerprint.digest, image.data);
    return image;
  }

  /** This row has passed `frame` (taken, or repeated); called for every frame of the row. */
  pass(frame: number): void {
    this.#passed.add(frame);
    this.#shared.pass(this, frame);
  }

  /** Whether this row has passed `frame`: a frame kept after it did does not wait for it. */
  hasPassed(frame: number): boolean {
    return this.#passed.has(frame);
  }

  /** The row's render has ended, however it ended: the frames it did not reach no longer wait for it. */
  end(): void {
    this.#shared.end(this);
  }

  #capture(page: CompositionPage, settings: FrameImageSettings): Promise<FrameResult> {
    if (!this.#behind.has(page)) return page.capture(settings);
    this.#behind.delete(page);
    return page.captureImage(settings);
  }

  async #verify(page: CompositionPage, frame: number, settings: FrameImageSettings, image: Buffer): Promise<void> {
    const captured = await page.captureImage(settings);
    if (!captured.data.equals(image)) {
      throw new RenderError("internal-error", `frame ${frame} painted as an earlier row's by its fingerprint, but its captured image differs`);
    }
  }
}
