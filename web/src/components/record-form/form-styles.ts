// The form kit's classes (record-form.module.css), for a screen that builds its own field
// markup next to the kit's controls: a custom choice (triage, GCS, pain score), a raw input
// with the kit's label, hint and error, a block that spans both columns of a section
// (`formStyles.wide`), a survey of several sections (`formStyles.survey`). The kit's own
// components import the module directly. See docs/decisions/035-styling-convention.md.
import styles from './record-form.module.css';

export const formStyles = styles;
