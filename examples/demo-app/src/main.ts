// The main window (index.html): opens a note from the app's data folder and greets.
import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { getCurrentWindow } from "@tauri-apps/api/window";
import { open } from "@tauri-apps/plugin-dialog";
import { BaseDirectory, readTextFile } from "@tauri-apps/plugin-fs";

const note = document.querySelector<HTMLPreElement>("#note")!;
const titleBar = document.querySelector<HTMLElement>("#title-bar")!;

// A custom title bar (decorum's): dragged by hand, the snap layout shown on Windows.
titleBar.addEventListener("mousedown", () => getCurrentWindow().startDragging());
titleBar.addEventListener("mouseenter", () => invoke("plugin:decorum|show_snap_overlay"));

document.querySelector("#open")!.addEventListener("click", async () => {
  const picked = await open({ multiple: false, filters: [{ name: "Notes", extensions: ["md", "txt"] }] });
  if (typeof picked === "string") note.textContent = await readTextFile(picked, { baseDir: BaseDirectory.AppData });
});

document.querySelector("#greet")!.addEventListener("click", async () => {
  note.textContent = await invoke<string>("greet", { name: "caplint" });
});

await listen<string>("note-saved", (event) => {
  note.textContent = event.payload;
});
