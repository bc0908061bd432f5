import { Command, type ErrorOptions, type Option } from "commander";
import { nearest, quoteList } from "../core/did-you-mean.js";

/**
 * Commander's own usage errors in caplint's one style, `caplint: <what>: <why>; did you mean …?`, with
 * the flag named: `--format jsn: not one of …; did you mean "json"?` instead of commander's "option
 * '-f, --format <format>' argument 'jsn' is invalid", and `--formt: …; did you mean --format?` on one
 * line instead of commander's "(Did you mean --format?)" below it. Every subcommand is made by
 * `createCommand`, so each one words its errors this way.
 */
export class CaplintCommand extends Command {
  override createCommand(name?: string): Command {
    return new CaplintCommand(name);
  }

  override error(message: string, errorOptions?: ErrorOptions): never {
    return super.error(
      usageMessage(this, message.replace(/^error: /, ""), errorOptions?.code),
      errorOptions,
    );
  }
}

function usageMessage(command: Command, message: string, code: string | undefined): string {
  const name = commandPath(command);
  switch (code) {
    case "commander.unknownOption": {
      const flag = /^unknown option '(.*)'/.exec(message)?.[1];
      return flag === undefined ? message : unknownOption(command, flag);
    }
    case "commander.invalidArgument": {
      const match = /^option '(.*?)' argument '(.*)' is invalid\. ?([\s\S]*)$/.exec(message);
      if (match)
        return invalidValue(findOption(command, match[1]!), match[1]!, match[2]!, match[3]!);
      const argument =
        /^command-argument value '(.*)' is invalid for argument '(.*?)'\. ?([\s\S]*)$/.exec(
          message,
        );
      return argument ? `${name} ${argument[2]} ${argument[1]}: ${argument[3]}` : message;
    }
    case "commander.optionMissingArgument": {
      const flags = /^option '(.*)' argument missing/.exec(message)?.[1];
      const option = flags === undefined ? undefined : findOption(command, flags);
      return option ? `${flagName(option)}: needs a value (${option.flags})` : message;
    }
    case "commander.missingMandatoryOptionValue": {
      const flags = /^required option '(.*)' not specified/.exec(message)?.[1];
      const option = flags === undefined ? undefined : findOption(command, flags);
      return option ? `${name}: ${flagName(option)} is required (${option.flags})` : message;
    }
    case "commander.missingArgument": {
      const argument = /^missing required argument '(.*)'/.exec(message)?.[1];
      return argument === undefined
        ? message
        : `${name}: the argument <${argument}> is missing (caplint ${name} --help)`;
    }
    case "commander.excessArguments": {
      const expected = command.registeredArguments.length;
      return `${name}: too many arguments (it takes ${expected === 0 ? "none" : `at most ${expected}`}: caplint ${name} --help)`;
    }
    default:
      return message;
  }
}

/** `check`, `who-can`: the command as typed after `caplint`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(" ") || "caplint";
}

/** The command's options and those of every command above it (`--debug`, `--version`). */
function optionsIn(command: Command): readonly Option[] {
  const options: Option[] = [];
  for (let at: Command | null = command; at; at = at.parent) options.push(...at.options);
  return options;
}

function findOption(command: Command, flags: string): Option | undefined {
  return optionsIn(command).find((option) => option.flags === flags);
}

function flagName(option: Option): string {
  return option.long ?? option.short ?? option.flags;
}

function unknownOption(command: Command, flag: string): string {
  const name = commandPath(command);
  const written = flag.split("=")[0]!;
  const longs = optionsIn(command).flatMap((option) =>
    option.long && !option.hidden ? [option.long] : [],
  );
  const close = written.startsWith("--") ? nearest(written, [...longs, "--help"], 1) : [];
  if (close.length) return `${written}: ${name} has no such option; did you mean ${close[0]}?`;
  // An option of one or two other commands (`check --fail-on`): say where it belongs (one most commands take says nothing).
  const root = rootOf(command);
  const owners = root.commands.filter(
    (other) =>
      other !== command &&
      other.options.some((option) => option.long === written || option.short === written),
  );
  const where =
    owners.length && owners.length <= 2
      ? ` (it is an option of ${quoteList(
          owners.map((owner) => owner.name()),
          "and",
          (item) => item,
        )})`
      : "";
  return `${written}: ${name} has no such option${where}; its options: caplint ${name} --help`;
}

function rootOf(command: Command): Command {
  let at = command;
  while (at.parent) at = at.parent;
  return at;
}

/** A value an option refuses: a choice not offered gets the nearest ones, a parser's reason is kept. */
function invalidValue(
  option: Option | undefined,
  flags: string,
  value: string,
  reason: string,
): string {
  const flag = option ? flagName(option) : flags;
  const choices = option?.argChoices;
  if (choices?.length) {
    const close = nearest(value, choices, 2);
    return `${flag} ${value}: not one of ${choices.join(", ")}${close.length ? `; did you mean ${quoteList(close)}?` : ""}`;
  }
  return `${flag} ${value}: ${reason.trim() || "invalid value"}`;
}
