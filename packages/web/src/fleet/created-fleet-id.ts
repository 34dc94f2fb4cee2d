// The id of a fleet the API just created. An answer without one is an error of its own: the
// console could not open the fleet, nor set it up further.
export const couldNotFindIdMessage = 'could not find id';

export const createdFleetId = (created: unknown): number => {
  const id =
    typeof created === 'object' && created !== null && 'id' in created ? created.id : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new Error(couldNotFindIdMessage);
  }
  return id;
};
