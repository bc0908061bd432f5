export declare const RUNTIME_SOURCES: readonly string[];
export declare const RUNTIME_BUILD: readonly string[];
export declare const PREBUILT_MARKER: string;
