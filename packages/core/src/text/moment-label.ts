/** A moment of a composition as a snapshot labels it: `1.50 s · frame 45`. */
export function momentLabel(moment: { time: number; frame: number }): string {
  return `${moment.time.toFixed(2)} s · frame ${moment.frame}`;
}
