// The engine's and the rules' counters are one object with the loader's (the loader may not import the
// engine): see ../work.ts.
export { resetWork, work, type WorkCounter } from "../work.js";
