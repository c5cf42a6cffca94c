import type { Options } from 'tsup';
export declare function libraryConfig(opts: { entry: string[] | Record<string, string> }): Options | Options[];
