#!/usr/bin/env -S node --max-semi-space-size=2
// A render streams every frame through this process as a large base64 string; a small young
// generation collects them as they go instead of letting them pile up (about 75 MB less at
// 1080p, with no measurable CPU cost). bench/run.ts starts its renders with these same flags.
import "../dist/bundle/main.js";
