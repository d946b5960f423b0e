import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { strictAjv2020, type ValidateFunction } from './json-schema.js';

/** How many structuredContent values were checked, per tool, in this test file. */
export const outputChecks = new Map<string, number>();

/**
 * An SDK Client that checks every successful tool result's structuredContent against the
 * tool's published outputSchema with Ajv's 2020-12 compiler in strict mode, as a 2020-12-only
 * client would, independently of the SDK's own output check. A mismatch fails the call.
 */
export class CheckedClient extends Client {
  private validators?: Promise<Map<string, ValidateFunction>>;

  override async callTool(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    const result = await super.callTool(...args);
    const name = args[0].name;
    if (!result.isError && result.structuredContent !== undefined) {
      const validate = (await this.outputValidators()).get(name);
      if (!validate) throw new Error(`${name} returned structuredContent but lists no outputSchema`);
      if (!validate(result.structuredContent)) {
        throw new Error(
          `${name}: structuredContent does not match its outputSchema (Ajv 2020-12): ${JSON.stringify(validate.errors).slice(0, 2000)}`,
        );
      }
      outputChecks.set(name, (outputChecks.get(name) ?? 0) + 1);
    }
    return result;
  }

  private outputValidators(): Promise<Map<string, ValidateFunction>> {
    this.validators ??= this.listTools().then(({ tools }) => {
      const ajv = strictAjv2020();
      return new Map(tools.filter((t) => t.outputSchema).map((t) => [t.name, ajv.compile(t.outputSchema!)]));
    });
    return this.validators;
  }
}
