// The compose preview page, bundled from these modules into the one script index.html loads.
//
// The composition runs in an iframe whose HTML the server sends with the page runtime as its first
// script (the same bundle and boot call render injects), booted with the variables chosen here.
// Each panel reads and writes the page's state in one store (app-state.ts) and follows the part it
// shows there and in the player's events; no panel calls another. Here they are bound, then the
// project is read.
import { bindFindings } from "./findings.js";
import { startProject } from "./project.js";
import { bindRenderPanel } from "./render-panel.js";
import { bindTimeline } from "./timeline.js";
import { bindVariablesPanel } from "./variables-panel.js";
import { bindViewer } from "./viewer.js";

bindFindings();
bindViewer();
bindVariablesPanel();
bindTimeline();
bindRenderPanel();
void startProject();
