-- leading comment — with an em dash
select 1 # hash comment
/* block
comment */