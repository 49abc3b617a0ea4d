/**
 * Where a render's resources live, as paths relative to the server's base URL: a job names its
 * output by them, and the HTTP layer serves them there.
 */
export const renderUrls = {
  status: (id: string) => `/render/${id}`,
  output: (id: string) => `/render/${id}/output`,
  outputFile: (id: string, name: string) => `/render/${id}/output/${encodeURIComponent(name)}`,
  batch: (id: string) => `/render/batch/${id}`,
};
