fn main() {
    // The app's own command, so that its permissions (permissions/greet.toml) are generated and checked.
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(&["greet"])))
        .expect("failed to run the tauri build script");
}
