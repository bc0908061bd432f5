import toolLifecycle from "../../../src/events/rules/tool-lifecycle.js";
import { testRule } from "../../helpers/rule-tester.js";

const START =
  '{"type":"tool_start","tool_call_id":6,"message_id":2,"name":"read_file","arguments":{},"display_name":"Read","icon":"read","label_short":"a","label_full":"b"}';
const USER = '{"type":"user_message","message_id":1,"content":"go"}';
const DONE = '{"type":"tool_done","tool_call_id":6,"result":"ok"}';

testRule(toolLifecycle, {
  valid: [{ name: "a call that starts and ends once", code: [USER, START, DONE].join("\n") }],
  invalid: [
    {
      name: "an end without a start",
      code: [USER, DONE].join("\n"),
      errors: [
        {
          messageId: "endWithoutStart",
          message: "tool_done for tool call 6, which never started",
          line: 2,
          column: 36,
        },
      ],
    },
    {
      name: "a second end names the first one's line",
      code: [USER, START, '{"type":"tool_error","tool_call_id":6,"error":"x"}', DONE].join("\n"),
      errors: [
        {
          messageId: "secondEnd",
          message: "tool_done for tool call 6, which already ended with tool_error",
          line: 4,
        },
      ],
    },
    {
      name: "a call still running when the recording ends is reported at its start",
      code: [USER, START].join("\n"),
      errors: [{ messageId: "openAtRecordingEnd", line: 2, column: 1 }],
    },
  ],
});
