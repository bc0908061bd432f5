import turnOrder from "../../../src/events/rules/turn-order.js";
import { testRule } from "../../helpers/rule-tester.js";

const USER = '{"type":"user_message","message_id":1,"content":"go"}';
const DONE =
  '{"type":"done","message_id":2,"stack_id":1,"content":"ok","input_tokens":1,"output_tokens":1}';

testRule(turnOrder, {
  valid: [
    {
      name: "a turn that ends with done",
      code: [USER, '{"type":"token_delta","kind":"content","delta":"ok"}', DONE].join("\n"),
    },
  ],
  invalid: [
    {
      name: "output after the turn's done",
      code: [USER, DONE, '{"type":"token_delta","kind":"content","delta":"late"}'].join("\n"),
      errors: [
        {
          messageId: "outputAfterDone",
          message: "token_delta after the turn's done, before any new user_message",
          hint: "a turn's output ends with done; the next turn starts with user_message",
          line: 3,
          column: 9,
        },
      ],
    },
  ],
});
