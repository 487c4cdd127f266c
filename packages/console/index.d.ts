/** Absolute path of the built console (`dist/`, made by `vite build` in the root `prepare`). */
export declare const consoleDist: string;
