import type { Readable } from 'node:stream';

// What the builder asks of a container engine: build an image from a context, push it to the
// fleet's registry. One implementation talks to Docker's Engine API (docker-build-backend.ts).

export type ImageBuildRequest = {
  // The Dockerfile's path inside the context.
  dockerfile: string;
  buildArgs: Record<string, string>;
  // The stage of a multi-stage Dockerfile to build; the last one when undefined.
  target: string | undefined;
  // The reference the image is tagged with: its location in the fleet's registry.
  tag: string;
  // Whether the build's steps reach the network (FLOTILLA_BUILDER_NETWORK).
  network: boolean;
  // Every step runs again, none taken from the engine's cache (balena push --nocache).
  noCache: boolean;
  // The platform to build for (linux/arm64) when it is not the engine's own, whose programs the
  // engine's host runs through emulation; undefined: the engine's own.
  platform: string | undefined;
  // The build's secrets by their id, which its Dockerfile mounts (`RUN --mount=type=secret`);
  // empty for most builds.
  secrets: ReadonlyMap<string, Buffer>;
};

// A build or push either succeeds or fails with the engine's reason (a failing RUN, a refused
// push); anything else (the engine unreachable) is thrown.
export type Outcome<T> = ({ ok: true } & T) | { ok: false; error: string };

export type BuildBackend = {
  // Stopped when `signal` aborts: the engine's build ends with the request. A build that does not
  // succeed (a failing step, stopped) leaves none of the images it made on the engine. Answers
  // the image and its size as the engine reports it (every layer, the base image's too).
  build(
    // A plain tar stream of the build context.
    context: Readable,
    request: ImageBuildRequest,
    onLog: (line: string) => void,
    signal: AbortSignal,
  ): Promise<Outcome<{ imageId: string; size: number }>>;
  // Pushes the tagged image with a registry token for exactly its repository; answers the
  // manifest's digest and the image's size.
  push(
    tag: string,
    registryToken: string,
    onLog: (line: string) => void,
    signal: AbortSignal,
  ): Promise<Outcome<{ digest: string; size: number }>>;
  // The CPU architecture the engine builds for, as the Engine API names it (amd64, arm64, arm).
  architecture(): Promise<string>;
  // Once pushed, the image stays on the engine as `cacheTag` only (its service's next build
  // starts from its layers); the image that tag named before goes, with the layers only it used.
  keepAsCache(tag: string, cacheTag: string): Promise<void>;
  // An image that is not pushed (too large, the push failed or was stopped) goes, with the
  // layers only it used.
  discard(tag: string): Promise<void>;
  // Whether the engine runs programs of another platform (linux/arm64): its host runs them
  // natively or through QEMU user emulation registered with binfmt_misc. Stopped when `signal`
  // aborts; leaves no image behind.
  runsPlatform(platform: string, signal: AbortSignal): Promise<boolean>;
};
