import { Field, ID, Int, ObjectType } from 'type-graphql';
import type {
  AppliedRule as AppliedRuleData,
  Identity as IdentityData,
  KnownName as KnownNameData,
  NormalisationStep as NormalisationStepData,
  SymlinkDeclaration as SymlinkDeclarationData,
} from '../../lineage/identity-service';
import { IdentityRuleKind, NameSource, NormalisationCode } from '../../lineage/types';
import '../enums';

@ObjectType({ description: 'One step that changed a spelling on its way to a dataset id.' })
export class NormalisationStep implements NormalisationStepData {
  @Field(() => NormalisationCode, { description: 'What kind of step.' })
  code!: NormalisationCode;

  @Field(() => String, { nullable: true, description: 'The identity rule (its name in the rules file) for RULE_* codes.' })
  rule!: string | null;

  @Field(() => String, { description: 'The step in words.' })
  message!: string;
}

@ObjectType({ description: 'A symlinks facet entry that declares two dataset names one dataset.' })
export class SymlinkDeclaration implements SymlinkDeclarationData {
  @Field(() => ID, { description: 'The dataset whose symlinks facet lists toId.' })
  fromId!: string;

  @Field(() => ID, { description: 'The dataset listed.' })
  toId!: string;

  @Field(() => String, { description: 'The identifier type the facet gave (TABLE, ...).' })
  type!: string;

  @Field(() => String, { description: 'Event time of the first declaration (UTC).' })
  firstSeen!: string;

  @Field(() => ID, { nullable: true, description: 'The stored event that declared it first (null in graphs projected before this was recorded: reproject).' })
  eventId!: string | null;

  @Field(() => String, { nullable: true, description: "That event's time." })
  eventTime!: string | null;

  @Field(() => ID, { nullable: true, description: "That event's job." })
  jobId!: string | null;

  @Field(() => ID, { nullable: true, description: "That event's run." })
  runId!: string | null;

  @Field(() => String, { nullable: true, description: "That event's producer." })
  producer!: string | null;
}

@ObjectType({ description: 'A name a dataset is known by, and how it got there.' })
export class KnownName implements KnownNameData {
  @Field(() => ID, { description: 'The node of this name (for RAW: the node the spelling became).' })
  id!: string;

  @Field(() => String, { description: 'Namespace (for RAW: as sent).' })
  namespace!: string;

  @Field(() => String, { description: 'Name (for RAW: as sent).' })
  name!: string;

  @Field(() => NameSource, { description: 'CANONICAL, RAW or SYMLINK.' })
  source!: NameSource;

  @Field(() => [NormalisationStep], { description: 'RAW: the steps from this spelling to the node name, in order.' })
  steps!: NormalisationStep[];

  @Field(() => SymlinkDeclaration, { nullable: true, description: 'SYMLINK: the symlink that links this name.' })
  symlink!: SymlinkDeclaration | null;

  @Field(() => Int, { description: 'Symlinks between this name and the dataset asked about.' })
  hops!: number;

  @Field(() => ID, { nullable: true, description: "For a field: the field's id under this name; null when none was reported under it." })
  fieldId!: string | null;
}

@ObjectType({ description: 'An identity rule of the TRIBUTARY_IDENTITY_RULES file.' })
export class AppliedRule implements AppliedRuleData {
  @Field(() => String, { description: 'Its name in the file.' })
  name!: string;

  @Field(() => IdentityRuleKind, { description: 'Its kind.' })
  kind!: IdentityRuleKind;

  @Field(() => String, { description: 'The rule as declared (JSON).' })
  definition!: string;
}

@ObjectType({ description: 'Every name a dataset (or a field) is known by, and why.' })
export class Identity implements IdentityData {
  @Field(() => ID, { description: 'The id asked about.' })
  requestedId!: string;

  @Field(() => ID, { description: 'The dataset the answer is about.' })
  id!: string;

  @Field(() => String, { description: 'Its namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'Its name.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'The field asked about (field ids), else null.' })
  field!: string | null;

  @Field(() => [KnownName], { description: 'CANONICAL first, then by symlink distance and id; RAW spellings after the name they became.' })
  names!: KnownName[];

  @Field(() => [AppliedRule], { description: 'The identity rules named in any step, as declared now.' })
  rules!: AppliedRule[];

  @Field(() => Boolean, { description: 'True when there were more symlinked names than first.' })
  truncated!: boolean;
}
