import type { ContainerEngine, ManagedContainer, RegistryAuth } from './container-engine.js';
import type { Wanted } from './wanted-services.js';

export type AppImagesOptions = {
  engine: ContainerEngine;
  // The device's registry credentials for an image's registry host.
  registryAuth: (registryHost: string) => RegistryAuth;
  log(message: string): void;
  // A download started or went a tenth further (the device's report shows its progress).
  changed(): void;
};

const registryHostOf = (reference: string): string => reference.split('/')[0] ?? '';

// The fleet app's images on the engine: downloads with their progress, and the images the agent
// pulled or found its containers made of, the only ones it ever removes (the user's other images
// are never touched).
export class AppImages {
  readonly #options: AppImagesOptions;
  readonly #downloads = new Map<string, number>();
  readonly #own = new Set<string>();

  constructor(options: AppImagesOptions) {
    this.#options = options;
  }

  // Each download in progress, by image, at 0–100.
  get downloads(): ReadonlyMap<string, number> {
    return this.#downloads;
  }

  // The images the app's containers are made of are the agent's (an earlier run pulled them).
  noteContainers(containers: readonly ManagedContainer[]): void {
    for (const container of containers) this.#own.add(container.image);
  }

  // Downloads the image unless the engine has it.
  async pull(reference: string): Promise<void> {
    const { engine, log, changed } = this.#options;
    if (await engine.hasImage(reference)) return;
    log(`Downloading image '${reference}'`);
    this.#downloads.set(reference, 0);
    changed();
    let reported = 0;
    await engine.pull(
      reference,
      this.#options.registryAuth(registryHostOf(reference)),
      (percent) => {
        this.#downloads.set(reference, percent);
        // A report every tenth of the way is enough for a progress bar.
        if (percent - reported >= 10) {
          reported = percent;
          changed();
        }
      },
    );
    this.#own.add(reference);
    log(`Downloaded image '${reference}'`);
  }

  // The downloads are over (done, or the update failed).
  downloadsEnded(): void {
    this.#downloads.clear();
  }

  // An image the update strategy deletes with its container (delete-then-download).
  async remove(reference: string): Promise<void> {
    this.#own.delete(reference);
    await this.#options.engine.removeImage(reference);
  }

  // After a successful update (or to make room on a full disk): the agent's images that neither
  // the target nor any of the app's containers use. The engine keeps an image another container
  // still uses.
  async removeUnused(
    wanted: Wanted | null,
    containers: readonly ManagedContainer[],
  ): Promise<void> {
    const used = new Set([
      ...(wanted?.specs ?? []).map(({ spec }) => spec.image),
      ...containers.map((container) => container.image),
    ]);
    for (const image of [...this.#own]) {
      if (used.has(image)) continue;
      this.#own.delete(image);
      this.#options.log(`Deleting image '${image}'`);
      await this.#options.engine.removeImage(image);
    }
  }
}
