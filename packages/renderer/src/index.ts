export { launchBrowser, findBrowserExecutable, BrowserNotFoundError } from "./browser/launch-browser.js";
