/** A file of a multipart body: the field it goes in, its bytes, the name it is sent under. */
export interface FormFile {
  field: string;
  blob: Blob;
  name: string;
}

/**
 * An upload's body: the text fields first, then the files, so a handler reading parts in order
 * knows the fields before the first file. Built alike by the page and by the service worker.
 */
export function formData(fields: Readonly<Record<string, unknown>> | undefined, files: readonly FormFile[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields ?? {})) form.append(name, String(value));
  for (const file of files) {
    // A File goes as it is; a Blob (how IndexedDB may give a queued file back) under its stored name.
    if (file.blob instanceof File && file.blob.name === file.name) form.append(file.field, file.blob);
    else form.append(file.field, file.blob, file.name);
  }
  return form;
}
