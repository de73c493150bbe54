import type { Command } from 'commander';

/** Every CLI command registers itself here, one module per command. */
export function registerCommands(program: Command): void {
  void program;
}
