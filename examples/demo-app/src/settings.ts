// The settings window (settings.html): its size and the user's theme, kept in the store.
import { getCurrentWindow, LogicalSize } from "@tauri-apps/api/window";
import { BaseDirectory, readTextFile } from "@tauri-apps/plugin-fs";
import { load } from "@tauri-apps/plugin-store";

const store = await load("settings.json");
const form = document.querySelector<HTMLFormElement>("#settings")!;

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const width = Number(new FormData(form).get("width"));
  await store.set("width", width);
  await getCurrentWindow().setSize(new LogicalSize(width, 600));
});

// The user's own stylesheet, from the app's config folder.
document.querySelector("#theme")!.textContent = await readTextFile("theme.css", { baseDir: BaseDirectory.AppConfig });
