import type { ConfigVarProperty } from '@flotilla/shared/variables/config-vars';
import type { ConfigVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import {
  configNameProblem,
  configValueProblem,
  duplicateProblem,
  environmentNameProblem,
  valueProblem,
} from '@flotilla/shared/variables/variable-form-rules';
import type { StagedEdits } from './useStagedEdits.js';
import {
  allServices,
  type ServiceInstallRow,
  serviceNotFound,
  type VariableChange,
} from './variable-model.js';
import { hasOwnValue, rowKey, type VariableRow } from './variable-rows.js';
import type { VariableStaging } from './variable-staging.js';
import { type ServiceChoice, VariableDialog } from './VariableDialog.js';
import { ownerOf, type VariablesScreenSpec, type VariablesSubject } from './variables-screens.js';

// The dialogs of a variables screen: adding, editing a row (a schema setting carries its
// property), listing the devices overriding a fleet value.
export type VariablesDialog =
  | { kind: 'add' }
  | { kind: 'edit'; row: VariableRow; property: ConfigVarProperty | undefined }
  | { kind: 'overrides'; row: VariableRow };

export type VariableEditDialogProps = {
  spec: VariablesScreenSpec;
  subject: VariablesSubject;
  dialog: VariablesDialog | null;
  rules: ConfigVarsAnswer;
  rows: readonly VariableRow[];
  // Services offered when adding an environment variable.
  choices: readonly ServiceChoice[];
  // The device's installed services: a device variable of a service it does not run is refused.
  installs: readonly ServiceInstallRow[];
  edits: StagedEdits<VariableChange>;
  staging: VariableStaging;
  onClose: () => void;
};

const editTitle = (spec: VariablesScreenSpec, row: VariableRow): string =>
  spec.overrideTitle && row.value === null
    ? `Override ${row.name} on this device`
    : `Edit ${row.name}`;

// Adding or editing one variable of the screen; the change is staged, not written.
export const VariableEditDialog = ({
  spec,
  subject,
  dialog,
  rules,
  rows,
  choices,
  installs,
  edits,
  staging,
  onClose,
}: VariableEditDialogProps) => {
  const editing = dialog?.kind === 'edit' ? dialog : null;
  const property = editing?.property;
  return (
    <VariableDialog
      open={dialog?.kind === 'add' || dialog?.kind === 'edit'}
      title={editing ? editTitle(spec, editing.row) : spec.addLabel}
      submitLabel={editing ? 'Stage change' : 'Add'}
      fixedName={editing?.row.name}
      initialValue={
        editing
          ? (editing.row.value ?? editing.row.inherited ?? String(property?.default ?? ''))
          : ''
      }
      multiline={editing === null || property === undefined}
      services={dialog?.kind === 'add' && choices.length > 1 ? choices : undefined}
      nameProblem={(name, serviceId) =>
        (spec.configControls
          ? configNameProblem(name, rules)
          : environmentNameProblem(name, rules)) ??
        duplicateProblem(
          name,
          (candidate) =>
            (spec.configControls && candidate in rules.configVarSchema.properties) ||
            rows.some(
              (row) => row.name === candidate && row.serviceId === serviceId && hasOwnValue(row),
            ),
        )
      }
      serviceProblem={
        spec.services && spec.inheritsFleet
          ? (serviceId) =>
              serviceId === allServices ||
              installs.some((install) => install.serviceId === serviceId)
                ? undefined
                : serviceNotFound
          : undefined
      }
      valueProblem={(value) =>
        spec.configControls ? configValueProblem(value, property) : valueProblem(value)
      }
      onClose={onClose}
      onSubmit={(form) => {
        const value = property ? form.value.trim() : form.value;
        if (editing) {
          staging.stageValue(editing.row, value);
        } else {
          const serviceId = spec.services
            ? choices.length > 1
              ? form.serviceId
              : (choices[0]?.id ?? 0)
            : allServices;
          edits.stage(rowKey(serviceId, form.name), 'added', {
            action: 'create',
            owner: ownerOf(spec, subject, serviceId),
            name: form.name,
            value,
          });
        }
        onClose();
      }}
    />
  );
};
