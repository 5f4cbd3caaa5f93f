interface ImportMetaEnv {
  /** Origin of the API, e.g. https://api.example.com; unset means the app's own origin. */
  readonly VITE_API_BASE?: string;
}
