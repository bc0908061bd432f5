/**
 * Every rule of the domain, one line each: a new rule is its file and its line here (docs/architecture.md).
 * An explicit list, not a glob, so that the bundle and the types see every rule.
 */
export { default as agentFrame } from "./agent-frame.js";
export { default as approvalLifecycle } from "./approval-lifecycle.js";
export { default as eventField } from "./event-field.js";
export { default as eventJson } from "./event-json.js";
export { default as eventLimit } from "./event-limit.js";
export { default as eventType } from "./event-type.js";
export { default as eventUnknownField } from "./event-unknown-field.js";
export { default as toolLifecycle } from "./tool-lifecycle.js";
export { default as turnOrder } from "./turn-order.js";
export { default as unknownResultType } from "./unknown-result-type.js";
