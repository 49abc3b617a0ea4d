/**
 * Resolves once the fonts the page uses are loaded and every image is loaded and decoded, so a
 * captured frame never shows fallback text or a missing picture. Broken images do not block.
 */
export async function frameAssetsReady(): Promise<void> {
  // Fonts are requested by layout; lay out first so that fonts.ready covers the current DOM.
  document.documentElement?.getBoundingClientRect();
  await Promise.all([document.fonts.ready, ...Array.from(document.images, imageReady)]);
}

async function imageReady(image: HTMLImageElement): Promise<void> {
  if (!image.currentSrc && !image.getAttribute("src") && !image.getAttribute("srcset")) return;
  // A lazy image outside the viewport would never load.
  if (image.loading === "lazy") image.loading = "eager";
  if (!image.complete) {
    await new Promise<void>((resolve) => {
      image.addEventListener("load", () => resolve(), { once: true });
      image.addEventListener("error", () => resolve(), { once: true });
    });
  }
  await image.decode().catch(() => undefined);
}
