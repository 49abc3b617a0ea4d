/** Folder under the project root that the preview's renders are written to (and the watcher and composition lists skip). */
export const RENDERS_FOLDER = "renders";
